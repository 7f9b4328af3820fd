import type { App } from '@slack/bolt';
import { register as registerTsaiCommand } from './commands/tsai.js';
import type { SlackDeps } from './deps.js';

/** Every listener of every surface; each part adds its own `register(app, deps)` call here (one line each). */
export function registerListeners(app: App, deps: SlackDeps): void {
  registerTsaiCommand(app, deps);
}

import type { App } from '@slack/bolt';
import { register as registerApprovalActions } from './actions/approvals.js';
import { register as registerTsaiCommand } from './commands/tsai.js';
import type { SlackDeps } from './deps.js';
import { register as registerModals } from './modals/register.js';

/** Every listener of every surface; each part adds its own `register(app, deps)` call here (one line each). */
export function registerListeners(app: App, deps: SlackDeps): void {
  registerTsaiCommand(app, deps);
  registerModals(app, deps);
  registerApprovalActions(app, deps);
}

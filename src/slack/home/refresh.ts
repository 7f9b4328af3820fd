import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import type { HomeChange } from './publish.js';

export type { HomeChange };

/** The publisher loads with the first change: code that may run on the acking thread imports only this. */
let publisher: Promise<typeof import('./publish.js')> | undefined;
const load = () => {
  publisher ??= import('./publish.js');
  return publisher;
};

/**
 * Something of theirs changed (a request filed or decided, one expired, a flow ended): the Homes of the
 * people concerned are published again, debounced. Never throws and never waits: a Home that cannot be
 * refreshed must not hold up what changed.
 */
export function refreshHomes(bot: Bot, change: HomeChange): void {
  load()
    .then((m) => m.homes(bot).changed(change))
    .catch((e: unknown) => bot.logger.warn({ err: errText(e) }, 'could not refresh Homes'));
}

/** Stops publishing Homes (what waits is dropped); nothing to do if none was ever published. */
export async function stopHomes(bot: Bot): Promise<void> {
  if (publisher) await (await publisher).stopHomes(bot);
}

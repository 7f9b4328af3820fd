import boltApp from '@slack/bolt/dist/App.js';

/**
 * The parts of Bolt the bot runs: its App, and the errors it throws or checks. Bolt's entry loads every
 * receiver it ships, with what they need (Express, OAuth's installer with jsonwebtoken, Socket Mode with all
 * of undici), whatever an app uses; the bot serves HTTP with its own receiver (http/receiver.ts), starts
 * Socket Mode's only when configured (app.ts), and OAuth only for "Add to Slack". So the values come from
 * Bolt's own modules, never its entry, and the production bundle takes Bolt's App without the receivers it
 * would require (rolldown.config.mjs). Types may still come from `@slack/bolt`: they load nothing.
 */
export const App = compiledDefault(boltApp);
export type App = InstanceType<typeof App>;

export { AuthorizationError, ReceiverMultipleAckError } from '@slack/bolt/dist/errors.js';

/** Bolt's Socket Mode receiver, loaded when the bot is configured for Socket Mode (SLACK_APP_TOKEN). */
export async function socketModeReceiver() {
  return compiledDefault((await import('@slack/bolt/dist/receivers/SocketModeReceiver.js')).default);
}

/**
 * The default export of a Bolt module, which is CommonJS compiled from TypeScript: Node hands an ES module
 * its `module.exports`, whose `default` it is; the test runner hands over that `default` itself.
 */
function compiledDefault<T>(loaded: { default: T }): T {
  const either = loaded as { default: T } | T;
  return typeof either === 'object' && either !== null && 'default' in either
    ? either.default
    : (either as T);
}

import { runEntry } from '../src/entry.js';
import { startAll } from './start-all.js';

// `npm start`: the bot, with a local stand-in for whatever is not configured (service, Slack).
void runEntry(async (config, logger) =>
  startAll({
    config,
    logger,
    banner: (text) => process.stderr.write(text),
    // The browser sandbox runs only without Slack settings, so only then does SANDBOX_PORT matter.
    sandboxPort: config.slack.mode === 'none' ? config.sandboxPort : undefined,
  }),
);

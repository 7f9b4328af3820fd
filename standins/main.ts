import { runEntry } from '../src/entry.js';
import { startAll } from './start-all.js';

// In a terminal the logs are short readable lines and each notice is its banner alone; piped, they are
// JSON, with each notice as an entry as well.
const terminal = process.stdout.isTTY === true;

// `npm start`: the bot, with a local stand-in for whatever is not configured (service, Slack).
void runEntry(
  async (config, logger) =>
    startAll({
      config,
      logger,
      banner: (text) => process.stderr.write(text),
      noticesInLog: !terminal,
      // The browser sandbox runs only without Slack settings, so only then does SANDBOX_PORT matter.
      sandboxPort: config.slack.mode === 'none' ? config.sandboxPort : undefined,
    }),
  { humanLogs: terminal },
);

import { ConfigError } from './config.js';
import { runEntry } from './entry.js';
import { isConnected, missingConnection, startBot } from './startup.js';

// The production bot: Slack and the service must be configured. It loads no stand-in code; `npm start`
// (standins/main.ts) is the entry that fills in what is missing with local stand-ins.
void runEntry(async (config, logger) => {
  if (!isConnected(config))
    throw new ConfigError(
      missingConnection(config).map((variable) => ({
        variable,
        problem: 'is required by the production bot (without it, `npm start` runs the local sandbox)',
      })),
    );
  // The worker's program is this entry's sibling, in the bundle that production runs as in dist/src.
  return startBot({ config, logger, workerScript: new URL('./worker.js', import.meta.url) });
});

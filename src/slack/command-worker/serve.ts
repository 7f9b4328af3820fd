import { parentPort, workerData } from 'node:worker_threads';
import { createServiceClient } from '../../api/index.js';
import { createLogger } from '../../log.js';
import { openStore } from '../../store/index.js';
import { boltLogger } from '../bolt-logger.js';
import { completeDeps } from '../command-deps.js';
import { handleCommand } from '../commands/handle.js';
import { createGovernance } from '../governance/index.js';
import { respondTo } from '../response-url.js';
import { webClientOptions } from '../web-client.js';
import type { FromWorker, ToWorker, WorkerSetup } from './protocol.js';

/**
 * The command worker's loop: runs `handleCommand` for slash commands the main thread has acked, with its
 * own service client, store connection and Web API client. Loaded by ./thread.ts.
 */

const port = parentPort;
if (!port) throw new Error('serve.ts runs in the command worker thread (see startCommandWorker)');
const post = (m: FromWorker) => port.postMessage(m);
const { config, service: serviceOptions } = workerData as WorkerSetup;
const logger = createLogger({ level: config.logLevel, secrets: config.secrets }).child({
  thread: 'commands',
});

async function main(): Promise<void> {
  if (config.slack.mode === 'none') throw new Error('the command worker needs a Slack bot token');
  const service = createServiceClient(serviceOptions);
  const store = await openStore(config.databaseUrl);
  const { WebClient } = await import('@slack/web-api');
  const client = new WebClient(config.slack.botToken, {
    ...webClientOptions(config.slack.apiUrl),
    logger: boltLogger(logger),
  });
  const now = () => new Date();
  const governance = createGovernance({ config, logger, service, store, now, slack: () => client });
  const deps = completeDeps(
    { config, logger, service, store, now, hooks: governance.hooks, governance },
    client,
  );

  const inHand = new Set<Promise<void>>();
  // One message per event-loop turn, not per command: each message is an event on the acking thread.
  let finished: number[] = [];
  const reportFinished = () => {
    post({ kind: 'done', ids: finished });
    finished = [];
  };
  port!.on('message', (m: ToWorker) => {
    if (m.kind === 'command') {
      const run = handleCommand(
        { command: m.command, client, respond: respondTo(m.command.response_url) },
        deps,
      )
        .catch((e: unknown) => logger.error({ err: String(e) }, 'command failed inside the worker'))
        .finally(() => {
          inHand.delete(run);
          if (finished.push(m.id) === 1) setImmediate(reportFinished);
        });
      inHand.add(run);
      return;
    }
    void (async () => {
      await Promise.allSettled([...inHand]);
      await Promise.allSettled([service.close(), store.close()]);
      post({ kind: 'drained' });
      port!.close();
    })();
  });
  post({ kind: 'ready' });
}

main().catch((e: unknown) => {
  const message = e instanceof Error ? e.message : String(e);
  logger.error({ err: message }, 'the command worker could not start');
  post({ kind: 'start-failed', message });
  port.close();
});

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type AppOptions } from '@slack/bolt';
import { boltLogger } from './bolt-logger.js';
import { completeDeps } from './command-deps.js';
import type { BotDeps, SlackDeps } from './deps.js';
import { registerListeners } from './register.js';
import { webClientOptions } from './web-client.js';

export type { BotDeps, BotHooks, SlackDeps } from './deps.js';

export interface Bot {
  app: App;
  /** HTTP mode: listen on `port` (0 = any free port). Socket Mode: connect (port unused). */
  start(port: number): Promise<void>;
  stop(): Promise<void>;
  /** The port actually bound in HTTP mode after `start`. */
  port(): number | undefined;
  deps: SlackDeps;
}

export function createBot(deps: BotDeps): Bot {
  const { config } = deps;
  const slack = config.slack;
  if (slack.mode === 'none') {
    throw new Error(
      'createBot needs Slack settings: SLACK_BOT_TOKEN with SLACK_SIGNING_SECRET or SLACK_APP_TOKEN',
    );
  }
  const common: AppOptions = {
    token: slack.botToken,
    logger: boltLogger(deps.logger),
    // auth.test runs in start() (app.init), so a wrong token fails loudly there instead of in the constructor.
    deferInitialization: true,
    // Bolt's conversation store keeps per-conversation state we never use; its middleware cost every
    // incoming request ~15 % of a bare app's ack CPU (docs/performance.md).
    convoStore: false,
    clientOptions: webClientOptions(slack.apiUrl),
  };
  const app =
    slack.mode === 'socket'
      ? new App({ ...common, socketMode: true, appToken: slack.appToken })
      : new App({
          ...common,
          signingSecret: slack.signingSecret,
          endpoints: '/slack/events',
          customRoutes: [
            {
              path: '/healthz',
              method: ['GET'],
              handler: (_req, res) => {
                res.writeHead(200, { 'content-type': 'text/plain' });
                res.end('ok');
              },
            },
          ],
        });

  const full = completeDeps(deps, app.client);
  registerListeners(app, full);
  app.error(async (error) => {
    deps.logger.error({ err: error.message, code: error.code }, 'unhandled error in a Slack listener');
  });

  let server: Server | undefined;
  return {
    app,
    deps: full,
    async start(port) {
      await app.init();
      const started = await app.start(port);
      if (slack.mode === 'http') server = started as Server;
    },
    async stop() {
      await app.stop();
      server = undefined;
    },
    port() {
      const address = server?.address();
      return address && typeof address === 'object' ? (address as AddressInfo).port : undefined;
    },
  };
}

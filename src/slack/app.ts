import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppOptions, AuthorizeResult } from '@slack/bolt';
import { errText } from '../log.js';
import { App, socketModeReceiver } from './bolt.js';
import { boltLogger } from './bolt-logger.js';
import type { Bot } from './bot.js';
import { registerListeners } from './feature.js';
import { featuresOf } from './features.js';
import { boundedServerOptions, boundServer } from './http/limits.js';
import { type Route, SlackHttpReceiver } from './http/receiver.js';
import { type MarkSeen, processMarks } from './http/seen-marks.js';
import type { Readiness } from './readiness.js';
import { EVENTS_PATH } from './routes.js';
import type { FollowUps } from './runtime/jobs.js';
import { webClientOptions } from './web-client.js';

/** How long requests in flight may take to finish once the app stops. */
const STOP_GRACE_MS = 1_000;

export interface SlackApp {
  app: App;
  /** HTTP mode: listen on `port` (0 = any free port). Socket Mode: connect (port unused). */
  start(port: number): Promise<void>;
  /** Stops taking requests. */
  stop(): Promise<void>;
  /** The port actually bound in HTTP mode after `start`. */
  port(): number | undefined;
}

/**
 * The Bolt app: the receiver (HTTP with signature checks, or Socket Mode), `/healthz`, and the listeners
 * of every feature the configuration runs (`featuresOf`). Listeners acknowledge here; their follow-ups run
 * on `followUps`.
 */
export async function createSlackApp(
  bot: Bot,
  followUps: FollowUps,
  readiness?: Readiness,
): Promise<SlackApp> {
  const slack = bot.config.slack;
  if (slack.mode === 'none') throw new Error('the Slack app needs Slack settings (a bot token)');
  // One bot token: who the bot is, asked of Slack at once, while the rest starts: Bolt's own check
  // (app.init) would hold the port closed for a round trip to Slack. Requests wait for the answer; start()
  // fails on a refused token, as loudly as before. "Add to Slack": each request's installation, looked up.
  const identity = slack.mode === 'installs' ? undefined : whoTheBotIs(bot, slack.botToken);
  const installations = bot.installations;
  const common: AppOptions = {
    authorize: identity
      ? () => identity
      : (source) => {
          if (!installations) throw new Error('"Add to Slack" without installations');
          return installations.authorize(source);
        },
    logger: boltLogger(bot.logger),
    deferInitialization: true,
    // Bolt's conversation store keeps per-conversation state we never use; its middleware cost every
    // incoming request ~15 % of a bare app's ack CPU (docs/performance.md).
    convoStore: false,
    // Bolt builds a new WebClient for every function_executed event to carry the execution's own token;
    // steps are completed with the bot token instead (workflows/complete.ts: the execution's lasts
    // minutes, a flow hours), so that client would be built on the acking path for nothing.
    attachFunctionToken: false,
    clientOptions: webClientOptions(slack.apiUrl),
  };
  const app =
    slack.mode === 'socket'
      ? new App({
          ...common,
          receiver: new (await socketModeReceiver())({ appToken: slack.appToken, logger: common.logger }),
        })
      : new App({
          ...common,
          receiver: guardedReceiver(
            bot,
            slack.signingSecret,
            readiness,
            // "Add to Slack": its install page and redirect, loaded only then.
            slack.mode === 'installs'
              ? (await import('./install/installer.js')).installRoutes(bot, slack)
              : {},
          ),
        });

  registerListeners(app, await featuresOf(bot.config), { bot, followUps });
  app.error(async (error) => {
    bot.logger.error({ err: error.message, code: error.code }, 'unhandled error in a Slack listener');
  });

  let server: Server | undefined;
  const running: SlackApp = {
    app,
    async start(port) {
      await app.init();
      const started = await app.start(port, boundedServerOptions());
      if (slack.mode !== 'socket') {
        server = started as Server;
        boundServer(server);
      }
      try {
        await identity;
      } catch (e) {
        await running.stop();
        throw e;
      }
    },
    async stop() {
      // No new connections from here; requests in flight (acks, within Slack's 3 s) get a grace, then any
      // connection still open (a client that never finishes its request) is cut, so stopping is bounded.
      const s = server;
      const cut = s ? setTimeout(() => s.closeAllConnections(), STOP_GRACE_MS) : undefined;
      try {
        await app.stop();
      } finally {
        clearTimeout(cut);
        server = undefined;
      }
    },
    port() {
      const address = server?.address();
      return address && typeof address === 'object' ? (address as AddressInfo).port : undefined;
    },
  };
  return running;
}

/** The bot's token with its user and bot IDs (`auth.test`), as Bolt's listeners are given them. */
function whoTheBotIs(bot: Bot, botToken: string): Promise<AuthorizeResult> {
  const asked = bot.slack.auth.test().then((r) => ({
    botToken,
    ...(r.user_id ? { botUserId: r.user_id } : {}),
    ...(r.bot_id ? { botId: r.bot_id } : {}),
    ...(r.team_id ? { teamId: r.team_id } : {}),
  }));
  // Told by start(); a request before then waits for it, or fails with it.
  asked.catch(() => {});
  return asked;
}

/**
 * Our receiver (http/receiver.ts): each request's signature is checked over its raw bytes before anything
 * parses it, and the body is read and parsed once for both the guard and Bolt.
 */
function guardedReceiver(
  bot: Bot,
  signingSecret: string,
  readiness: Readiness | undefined,
  pages: Record<string, Route>,
): SlackHttpReceiver {
  const routes: Record<string, Route> = {
    ...pages,
    '/healthz': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    },
  };
  if (readiness) routes['/readyz'] = readinessRoute(readiness);
  return new SlackHttpReceiver({
    endpoint: EVENTS_PATH,
    routes,
    signingSecret,
    ...replayMarks(bot),
    pruneSeen: (now) => bot.store.pruneRequestsSeen(now),
    logger: bot.logger,
  });
}

/**
 * Replicas share a PostgreSQL store, so each request's mark is its atomic upsert there, awaited before the
 * request is acted on: one replica acts on a replay that reaches two. A SQLite store is this process's
 * alone: its marks are held in memory and written every few seconds (seen-marks.ts, `processMarks`).
 */
function replayMarks(bot: Bot): { markSeen: MarkSeen; flushSeen?: () => Promise<void> } {
  const { store } = bot;
  if (store.kind === 'postgres')
    return { markSeen: (keys, now, expiresAt) => store.markRequestsSeen(keys, now, expiresAt) };
  const marks = processMarks(store, (err) =>
    bot.logger.warn(
      { err: errText(err) },
      'could not read or write the replay marks; kept in memory and written again shortly',
    ),
  );
  return { markSeen: marks.markSeen, flushSeen: marks.flush };
}

/** `GET /readyz`: 200 `{"ready":true}`, or 503 with what keeps the bot from its work (`/healthz` is liveness). */
function readinessRoute(readiness: Readiness): Route {
  return (_req, res) => {
    void readiness.report().then((r) => {
      res.writeHead(r.ready ? 200 : 503, { 'content-type': 'application/json' });
      res.end(JSON.stringify(r));
    });
  };
}

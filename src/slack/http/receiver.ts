import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { Receiver } from '@slack/bolt';
import { type App, AuthorizationError } from '../bolt.js';
import { type GuardOptions, guardEvents } from '../http-guard.js';
import { httpAck } from './ack.js';
import type { Payload } from './payload.js';

/** A plain GET answered beside the Slack endpoint (liveness, readiness). */
export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface ReceiverOptions extends GuardOptions {
  /** The path Slack posts to. */
  endpoint: string;
  /** GET paths answered beside it; anything else is 404. */
  routes: Record<string, Route>;
}

/**
 * Bolt's receiver in HTTP mode, one pass over each request: the guard (http-guard.ts) checks the signature
 * over the raw bytes as they stream in, enforces the limits, parses the body once and marks it seen; the
 * payload it read goes straight to `app.processEvent`. Bolt's own HTTPReceiver would read, check and parse
 * the same body again (docs/performance.md).
 */
export class SlackHttpReceiver implements Receiver {
  private app: App | undefined;
  private server: Server | undefined;
  private readonly events: Route;

  constructor(private readonly o: ReceiverOptions) {
    this.events = guardEvents(o, (req, res, payload) => this.deliver(req, res, payload));
  }

  init(app: App): void {
    this.app = app;
  }

  start(port: number, serverOptions: ServerOptions = {}): Promise<Server> {
    if (this.server) return Promise.reject(new Error('the Slack receiver is already started'));
    const server = createServer(serverOptions, (req, res) => this.route(req, res));
    this.server = server;
    return new Promise((resolve, reject) => {
      let listening = false;
      server.on('error', (err) => {
        if (listening) return this.o.logger.error({ err: err.message }, 'the HTTP server failed');
        this.server = undefined;
        reject(err);
      });
      server.listen(port, () => {
        listening = true;
        resolve(server);
      });
    });
  }

  stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return Promise.resolve();
    const closed = new Promise<void>((resolve, reject) =>
      server.close((err) => (err ? reject(err) : resolve())),
    );
    // Once no request is left, the marks written behind go to the store, so a restart still knows them.
    return closed.finally(() => this.o.flushSeen?.());
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const path = query < 0 ? url : url.slice(0, query);
    if (path === this.o.endpoint && req.method === 'POST') return void this.events(req, res);
    const route = req.method === 'GET' ? this.o.routes[path] : undefined;
    if (!route) return void res.writeHead(404).end();
    try {
      route(req, res);
    } catch (err) {
      this.o.logger.error({ err: (err as Error).message, path }, 'an HTTP route failed');
      if (!res.headersSent) res.writeHead(500).end();
    }
  }

  /** A verified request, not seen before: Slack's own checks are answered here, the rest goes to Bolt. */
  private deliver(req: IncomingMessage, res: ServerResponse, payload: Payload): void {
    if (payload.kind === 'unreadable') {
      this.o.logger.warn('a signed Slack request whose body is not what its content type says; answered 400');
      return void res.writeHead(400).end();
    }
    const body = (payload.kind === 'command' ? payload.form : payload.value) as Record<string, unknown>;
    if (body.ssl_check === '1') return void res.writeHead(200).end();
    if (body.type === 'url_verification') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ challenge: body.challenge }));
    }
    const app = this.app;
    if (!app) return void res.writeHead(503).end();
    const retryNum = req.headers['x-slack-retry-num'];
    const retryReason = req.headers['x-slack-retry-reason'];
    app
      .processEvent({
        body,
        ack: httpAck(res, this.o.logger),
        ...(typeof retryNum === 'string' ? { retryNum: Number.parseInt(retryNum, 10) } : {}),
        ...(typeof retryReason === 'string' ? { retryReason } : {}),
      })
      .catch((err: unknown) => this.failed(err, res));
  }

  /** What Bolt's receiver does when processing fails: 401 when the app could not authorise, else 500. */
  private failed(err: unknown, res: ServerResponse): void {
    if (res.headersSent) {
      this.o.logger.error({ err: (err as Error).message }, 'a Slack listener failed after its ack');
      return;
    }
    if (err instanceof AuthorizationError) return void res.writeHead(401).end();
    this.o.logger.error({ err: (err as Error).message }, 'a Slack request failed before its ack');
    res.writeHead(500).end();
  }
}

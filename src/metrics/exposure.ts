import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AggregatorRegistry, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { enableMetrics, type ThreadMetrics } from './metrics.js';

export type { ThreadMetrics };

/** What the store says of shared state, read at each scrape so that every replica reports the same. */
export interface StoreFigures {
  /** Followed flows (those the store keeps) by the status the service last gave them. */
  flows: { status: string; count: number }[];
  approvalsPending: number;
}

export interface ExposureOptions {
  host: string;
  /** 0: any free port (tests). */
  port: number;
  readStore(): Promise<StoreFigures>;
  /** The other threads' registries (the follow-up worker's); [] when there are none. */
  otherThreads(): Promise<ThreadMetrics[]>;
  /** A scrape that could not read the store still answers, without the store's gauges. */
  onStoreError(e: unknown): void;
}

export interface MetricsExposure {
  port(): number;
  stop(): Promise<void>;
}

export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** The statuses a flow is counted under; anything else the service says is `other`, so labels stay few. */
const FLOW_STATUSES = new Set([
  'created',
  'queued',
  'running',
  'completed',
  'failed',
  'cancelled',
  'stopped',
]);

export function flowStatusLabel(status: string): string {
  const s = status.toLowerCase();
  if (s === 'canceled') return 'cancelled';
  return FLOW_STATUSES.has(s) ? s : 'other';
}

/** The gauges that come from the store, in a registry of their own that reads it when scraped. */
function storeGauges(o: ExposureOptions): Registry {
  const own = new Registry();
  let figures: Promise<StoreFigures | null> | undefined;
  // Both gauges are collected in one scrape: the store is read once for the two.
  const read = () => {
    figures ??= o.readStore().catch((e: unknown) => {
      o.onStoreError(e);
      return null;
    });
    return figures;
  };
  new Gauge({
    name: 'tsai_flows',
    help: 'Flows the bot follows or followed (as long as the store keeps them), by the status the service last gave.',
    labelNames: ['status'] as const,
    registers: [own],
    async collect() {
      this.reset();
      const f = await read();
      for (const { status, count } of f?.flows ?? []) this.labels(flowStatusLabel(status)).inc(count);
    },
  });
  new Gauge({
    name: 'tsai_approvals_pending',
    help: 'Approval requests waiting for a decision (from the store: every replica reports the same).',
    registers: [own],
    async collect() {
      const f = await read();
      figures = undefined;
      if (f) this.set(f.approvalsPending);
      else this.reset();
    },
  });
  return own;
}

let processMetrics = false;

/**
 * Process CPU, memory, event-loop lag and GC, once per process and only on the thread that exposes the
 * metrics: the figures are the process's, so the worker thread does not report them again.
 */
function collectProcessMetrics(registry: Registry): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}

/**
 * `GET /metrics` on its own port, apart from Slack's request URL, in Prometheus's text format: this
 * thread's metrics and the other threads' added up, and the store's gauges. Nothing is collected until
 * Prometheus asks.
 */
export async function startMetricsExposure(o: ExposureOptions): Promise<MetricsExposure> {
  const { registry } = await enableMetrics();
  collectProcessMetrics(registry);
  const gauges = storeGauges(o);
  const scrape = async (): Promise<string> => {
    const parts = await Promise.all([registry.getMetricsAsJSON(), gauges.getMetricsAsJSON()]);
    const others = await o.otherThreads();
    return AggregatorRegistry.aggregate([...parts, ...others]).metrics();
  };
  const server = createServer((req, res) => void answer(req, res, scrape));
  server.headersTimeout = 5_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port, o.host, () => {
      server.off('error', fail);
      ok();
    });
  });
  return {
    port: () => (server.address() as AddressInfo).port,
    stop: () => close(server),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, scrape: () => Promise<string>) {
  const path = (req.url ?? '').split('?')[0];
  if (path !== '/metrics') {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Metrics are at /metrics.\n');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Use GET.\n');
    return;
  }
  try {
    const body = await scrape();
    res.writeHead(200, { 'content-type': CONTENT_TYPE });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch {
    res.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be collected.\n');
  }
}

function close(server: Server): Promise<void> {
  return new Promise((ok) => {
    server.close(() => ok());
    server.closeAllConnections();
  });
}

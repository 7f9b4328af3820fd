import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';

/**
 * Where prom-client's entry takes the three parts every thread counts with. Its entry loads everything it
 * ships, the default metrics among it, whose process CPU metric loads OpenTelemetry's API (some 90
 * modules in all, against these 7); only the acking thread, which serves the metrics, needs the rest
 * (exposure.ts). prom-client has no export map and the lockfile pins its version; test/metrics.test.ts
 * fails if these files stop being the ones its entry exports.
 */
export const PROM_CLIENT_PARTS = {
  registry: 'prom-client/lib/registry.js',
  counter: 'prom-client/lib/counter.js',
  histogram: 'prom-client/lib/histogram.js',
} as const;

/**
 * The prom-client side of the metrics: one registry per thread (a module is loaded once per thread) and
 * the instruments in it. Loaded by `enableMetrics` (metrics.ts) once the thread knows its metrics are
 * exposed, never on the way to a thread's first acknowledgement.
 */
export function createInstruments() {
  const require = createRequire(import.meta.url);
  const Registry = require(PROM_CLIENT_PARTS.registry) as typeof PromClient.Registry;
  const Counter = require(PROM_CLIENT_PARTS.counter) as typeof PromClient.Counter;
  const Histogram = require(PROM_CLIENT_PARTS.histogram) as typeof PromClient.Histogram;
  const registry = new Registry();
  return {
    registry,
    ackDuration: new Histogram({
      name: 'tsai_ack_duration_seconds',
      help: "Time from a listener receiving a Slack request to its acknowledgement being done (Slack's limit is 3 s).",
      labelNames: ['surface'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
      registers: [registry],
    }),
    serviceDuration: new Histogram({
      name: 'tsai_service_request_duration_seconds',
      help: 'Time one operation spent with the service, retries included, by operation and outcome (ok, error, unknown).',
      labelNames: ['operation', 'outcome'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40],
      registers: [registry],
    }),
    storeErrors: new Counter({
      name: 'tsai_store_errors_total',
      help: 'Store queries that failed: `unavailable` (the database did not answer or was locked) or `error`.',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    retries: new Counter({
      name: 'tsai_retries_total',
      help: 'Calls tried again: `service` (a safe service call), `slack` (a Web API call), `store` (a write waiting out an outage).',
      labelNames: ['target'] as const,
      registers: [registry],
    }),
  };
}

export type Instruments = ReturnType<typeof createInstruments>;

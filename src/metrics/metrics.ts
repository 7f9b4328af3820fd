import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { observeStore } from '../store/observers.js';

/**
 * What operators watch, counted where the work happens. Every thread has its own registry of these (a
 * module is loaded once per thread); the acking thread's exposure adds the follow-up worker's counts to
 * its own at each scrape (exposure.ts), so one scrape shows the whole process. Labels take only a few
 * fixed values: never a user, a flow ID or free text.
 */
export const registry = new Registry();

/** The kinds of Slack request an acknowledgement answers: the label of `tsai_ack_duration_seconds`. */
export type SurfaceKind =
  | 'command'
  | 'action'
  | 'shortcut'
  | 'view_submission'
  | 'view_closed'
  | 'options'
  | 'event';

const ackDuration = new Histogram({
  name: 'tsai_ack_duration_seconds',
  help: "Time from a listener receiving a Slack request to its acknowledgement being done (Slack's limit is 3 s).",
  labelNames: ['surface'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
  registers: [registry],
});

const serviceDuration = new Histogram({
  name: 'tsai_service_request_duration_seconds',
  help: 'Time one operation spent with the service, retries included, by operation and outcome (ok, error, unknown).',
  labelNames: ['operation', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40],
  registers: [registry],
});

const storeErrors = new Counter({
  name: 'tsai_store_errors_total',
  help: 'Store queries that failed: `unavailable` (the database did not answer or was locked) or `error`.',
  labelNames: ['reason'] as const,
  registers: [registry],
});

const retries = new Counter({
  name: 'tsai_retries_total',
  help: 'Calls tried again: `service` (a safe service call), `slack` (a Web API call), `store` (a write waiting out an outage).',
  labelNames: ['target'] as const,
  registers: [registry],
});

/**
 * The acknowledgement timer of one kind of request, made once per listener: observing it allocates
 * nothing, so the acking thread pays only the observation.
 */
export function ackTimer(surface: SurfaceKind): { observe(seconds: number): void } {
  return ackDuration.labels(surface);
}

export type ServiceOutcome = 'ok' | 'error' | 'unknown';

export function observeServiceCall(operation: string, outcome: ServiceOutcome, seconds: number): void {
  serviceDuration.labels(operation, outcome).observe(seconds);
}

export function countStoreError(reason: 'unavailable' | 'error'): void {
  storeErrors.labels(reason).inc();
}

export function countRetry(target: 'service' | 'slack' | 'store'): void {
  retries.labels(target).inc();
}

let processMetrics = false;

/**
 * Process CPU, memory, event-loop lag and GC, once per process and only on the thread that exposes the
 * metrics: the figures are the process's, so the worker thread does not report them again.
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry });
}

/** One thread's registry as prom-client writes it out: plain data, to cross threads. */
export type ThreadMetrics = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** This thread's metrics as plain data, for the thread that exposes them (see exposure.ts). */
export function threadMetrics(): Promise<ThreadMetrics> {
  return registry.getMetricsAsJSON();
}

let watchingStore = false;

/** This thread's store failures and retries counted here (once per thread, however many bots it composes). */
export function countStoreEvents(): void {
  if (watchingStore) return;
  watchingStore = true;
  observeStore({ failed: countStoreError, retried: () => countRetry('store') });
}

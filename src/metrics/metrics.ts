import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import { observeStore } from '../store/observers.js';
import type { Instruments } from './instruments.js';

/**
 * What operators watch, counted where the work happens. Every thread has its own registry (a module is
 * loaded once per thread); the acking thread's exposure adds the follow-up worker's counts to its own at
 * each scrape (exposure.ts), so one scrape shows the whole process. Labels take only a few fixed values:
 * never a user, a flow ID or free text.
 *
 * prom-client itself is loaded only once the metrics are exposed (`enableMetrics`), after the bot
 * listens: it is about a tenth of a bare Bolt app's start-up, and the first acknowledgement does not wait
 * for it. What is counted before is kept (bounded) and counted then; with the metrics off
 * (`disableMetrics`), nothing is kept and prom-client is never loaded.
 */

/** The kinds of Slack request an acknowledgement answers: the label of `tsai_ack_duration_seconds`. */
export type SurfaceKind =
  | 'command'
  | 'action'
  | 'shortcut'
  | 'view_submission'
  | 'view_closed'
  | 'options'
  | 'event';

type Count = (i: Instruments) => void;

/** Enough for the first seconds of a busy start; beyond it, the earliest counts are what is kept. */
const MAX_WAITING = 10_000;

let instruments: Instruments | undefined;
let loading: Promise<Instruments> | undefined;
/** Counts made before prom-client is loaded; undefined once the metrics are off on this thread. */
let waiting: Count[] | undefined = [];

function count(c: Count): void {
  if (instruments) c(instruments);
  else if (waiting && waiting.length < MAX_WAITING) waiting.push(c);
}

/** Loads prom-client and this thread's instruments (once), and counts what was waiting. */
export function enableMetrics(): Promise<Instruments> {
  loading ??= import('./instruments.js').then(({ createInstruments }) => {
    const made = createInstruments();
    for (const c of waiting ?? []) c(made);
    waiting = undefined;
    instruments = made;
    return made;
  });
  return loading;
}

/** The metrics are off on this thread: nothing is counted or kept. */
function disableMetrics(): void {
  if (!loading) waiting = undefined;
}

/** Once a thread has started: loads the instruments if it counts (its metrics are not off). */
export function loadMetricsIfCounting(): void {
  if (waiting) void enableMetrics();
}

/**
 * The acknowledgement timer of one kind of request, made once per listener: once the metrics are loaded,
 * observing it allocates nothing, so the acking thread pays only the observation.
 */
export function ackTimer(surface: SurfaceKind): { observe(seconds: number): void } {
  let child: { observe(seconds: number): void } | undefined;
  return {
    observe(seconds) {
      if (!instruments) return count((i) => i.ackDuration.labels(surface).observe(seconds));
      child ??= instruments.ackDuration.labels(surface);
      child.observe(seconds);
    },
  };
}

export type ServiceOutcome = 'ok' | 'error' | 'unknown';

export function observeServiceCall(operation: string, outcome: ServiceOutcome, seconds: number): void {
  count((i) => i.serviceDuration.labels(operation, outcome).observe(seconds));
}

export function countStoreError(reason: 'unavailable' | 'error'): void {
  count((i) => i.storeErrors.labels(reason).inc());
}

export function countRetry(target: 'service' | 'slack' | 'store'): void {
  count((i) => i.retries.labels(target).inc());
}

/** One thread's registry as prom-client writes it out: plain data, to cross threads. */
export type ThreadMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** This thread's metrics as plain data, for the thread that exposes them (see exposure.ts). */
export async function threadMetrics(): Promise<ThreadMetrics> {
  return (await enableMetrics()).registry.getMetricsAsJSON();
}

/**
 * What this thread counts under one configuration: with the metrics off, nothing; else everything, the
 * store's failures and retries among it, kept until `enableMetrics` loads the instruments.
 */
export function countOnThisThread(settings: { port: number | 'off' }): void {
  if (settings.port === 'off') disableMetrics();
  else countStoreEvents();
}

let watchingStore = false;

/** This thread's store failures and retries counted here (once per thread, however many bots it composes). */
export function countStoreEvents(): void {
  if (watchingStore) return;
  watchingStore = true;
  observeStore({ failed: countStoreError, retried: () => countRetry('store') });
}

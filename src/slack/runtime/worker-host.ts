import { Worker } from 'node:worker_threads';
import type { WriteHealth } from '../../core/records.js';
import type { Logger } from '../../log.js';
import type { ThreadMetrics } from '../../metrics/metrics.js';
import { afterBurst } from './after-burst.js';
import { noticeOf } from './dispatch.js';
import type { FollowUpHolds } from './holds.js';
import type { FollowUps, Job, Notice } from './jobs.js';
import { interruptedText, restartingText, stoppedText } from './notices.js';
import type { FromWorker, ToWorker, WorkerSetup } from './protocol.js';

export interface WorkerHostOptions {
  setup: WorkerSetup;
  logger: Logger;
  /** Tells a person about a job the worker lost (or could not take). */
  tell(notice: Notice, text: string): Promise<unknown>;
  /** Writes log lines the worker formatted (each ending in a newline) into the process's log stream. */
  writeLog(lines: string): void;
  /** The worker program; default `worker.js` at the top of dist/src (the production entry passes its own). */
  script?: URL;
  drainTimeoutMs?: number;
  /** Jobs kept while the worker restarts; more are told to try again. */
  maxWaiting?: number;
  /** One of the worker's Web API calls was answered with an auth error. */
  onSlackAuthError?(error: string): void;
  /** The worker's writes to the store started failing, or work again. */
  onStoreWrites?(health: WriteHealth): void;
  /** Where the jobs in hand are kept, so that another replica can tell their people if this process dies. */
  holds?: FollowUpHolds;
  /**
   * The worker starts once this resolves (the app listens), so that its isolate does not share the cores
   * with the acking thread's own start; jobs before then wait for it.
   */
  startAfter?: Promise<unknown>;
  /** How long a job sent with `runOrTake` waits for the worker to begin it (`TAKE_BACK_AFTER_MS`). */
  takeBackAfterMs?: number;
}

/** The worker's follow-ups, and a way to have a job run here when the worker is slow to begin it. */
export interface WorkerFollowUps extends FollowUps {
  /**
   * Runs the job on the worker if it begins it within `takeBackAfterMs`, else calls `here` with it: one
   * or the other, never both.
   */
  runOrTake(job: Job, here: (job: Job) => void): void;
}

/**
 * A view must be opened within 3 s of its trigger. On an idle machine the worker opens it at once, beside
 * the acks; on a machine whose cores are busy, the worker (run at a lower priority) may not begin it for
 * seconds, so a job it has not begun within a second is taken back and run on the acking thread, with two
 * seconds left to open the view.
 */
export const TAKE_BACK_AFTER_MS = 1_000;

/**
 * The worker's heap. Under a burst V8 grew each isolate's young generation to ~34 MB and let the old one
 * reach 3-4x its live size before collecting (its growing factor is 4 when the heap limit is large). The
 * worker's objects are few, short-lived or held for one service call (~30 MB live in a 1200-command
 * burst), so a small young generation and a 256 MB limit (growing factor 1.3) cost a few more
 * collections on a low-priority thread and saved 50-100 MB of resident memory (docs/performance.md). A
 * worker that still ran out would be restarted like any crashed one.
 */
const HEAP_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 256 };

/**
 * The worker's program: `worker.js` at the top of the build. Worker threads run JavaScript, so when the
 * bot itself runs from its TypeScript sources (the test runner), the worker is the build of the same
 * sources, which the test run makes first.
 */
function workerScript(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('../../../dist/src/worker.js', import.meta.url)
    : new URL('../../worker.js', import.meta.url);
}

/**
 * The worker's setup: the acking thread's, with each module of operations it registers
 * (`BotSetup.operations`) given as TypeScript source (the test runner's) loaded from its build, as the
 * worker program itself is.
 */
function workerSetup(setup: WorkerSetup): WorkerSetup {
  const root = new URL('../../../', import.meta.url).href;
  const built = (url: string) =>
    import.meta.url.endsWith('.ts') && url.endsWith('.ts') && url.startsWith(root)
      ? new URL(`dist/${url.slice(root.length).replace(/\.ts$/, '.js')}`, root).href
      : url;
  return setup.operations ? { ...setup, operations: setup.operations.map(built) } : setup;
}

/** How long a stop waits for the people it tells about jobs it could not finish. */
const TELL_AT_STOP_MS = 1_500;

/** Restart delays after a crash: at once, then growing; reset after a minute without one. */
const RESTART_DELAYS_MS = [0, 1_000, 5_000, 30_000];
const CALM_AFTER_MS = 60_000;

/**
 * The acking thread's side of the follow-up worker. Listeners acknowledge on this thread and their
 * follow-ups run on a worker thread at a lower priority, so acks never queue behind slow work
 * (docs/performance.md has the figures). If the worker dies, the person behind every job it had in hand
 * is told its outcome is unknown, and a new worker starts; jobs that arrive meanwhile wait for it.
 */
export function startWorkerHost(o: WorkerHostOptions): WorkerFollowUps {
  const log = o.logger.child({ part: 'follow-up-worker' });
  const script = o.script ?? workerScript();
  const maxWaiting = o.maxWaiting ?? 1_000;
  const inHand = new Map<number, Job>();
  let waiting: { id: number; job: Job; claim?: true }[] = [];
  let nextId = 1;
  let worker: Worker | undefined;
  let stopping = false;
  const restartDelay = restartPacer();
  let restartTimer: NodeJS.Timeout | undefined;
  let drained: (() => void) | undefined;

  const start = startSignal();
  const send = (w: Worker, m: ToWorker) => w.postMessage(m);
  const scrapes = workerScrapes();
  const unclaimed = unclaimedJobs(o.takeBackAfterMs ?? TAKE_BACK_AFTER_MS);
  const tell = (job: Job, text: (n: Notice) => string) => tellAboutJob(o, log, job, text);

  // A job is sent to the worker, else kept with the others not sent yet.
  const deliver = (m: { id: number; job: Job; claim?: true }) => {
    if (!worker) return void waiting.push(m);
    inHand.set(m.id, m.job);
    send(worker, { kind: 'job', ...m });
  };

  const spawn = () => {
    restartTimer = undefined;
    const w = newWorker(script, o, inHand, log, {
      started: start.ok,
      startFailed: (message) => start.failed(`the follow-up worker could not start: ${message}`),
      drained: () => drained?.(),
      metrics: (id, metrics) => scrapes.answered(id, metrics),
      claim: (id) => send(w, { kind: 'claimed', id, ok: unclaimed.claim(id) }),
      exited: (code, began) => {
        if (worker === w) worker = undefined;
        if (stopping) return drained?.();
        if (!start.isReady()) return start.failed(`the follow-up worker exited with ${code} while starting`);
        onExit(code, began);
      },
    });
    worker = w;
    const held = waiting;
    waiting = [];
    for (const m of held) deliver(m);
  };

  const onExit = (code: number, began: boolean) => {
    // What the worker had not begun was not lost: it runs here.
    unclaimed.takeAllBack();
    const sent = [...inHand];
    inHand.clear();
    waiting = [...leftByExit(sent, began, { o, log, tell, code }), ...waiting];
    restartTimer = setTimeout(spawn, restartDelay());
  };

  void (o.startAfter ?? Promise.resolve()).then(() => stopping || spawn());

  // A burst's jobs are sent once its acks pause, so that their follow-ups do not compete with those acks
  // (a view to open is sent at once, its trigger lasting 3 s).
  const afterAcks = afterBurst(deliver);

  const run = (job: Job, claim?: true): number | undefined => {
    const id = nextId++;
    if (worker && !stopping) {
      o.holds?.hold(id, job);
      if (claim) deliver({ id, job, claim });
      else afterAcks.add({ id, job });
    } else if (waiting.length < maxWaiting && !stopping) {
      waiting.push({ id, job, ...(claim ? { claim } : {}) });
      o.holds?.hold(id, job);
    } else {
      void tell(job, restartingText);
      return undefined;
    }
    return id;
  };

  return {
    ready: start.ready,
    run(job) {
      run(job);
    },
    runOrTake(job, here) {
      const id = run(job, true);
      if (id === undefined) return;
      unclaimed.wait(id, () => {
        // The worker will be told no when it asks: the job is this thread's now.
        inHand.delete(id);
        waiting = waiting.filter((m) => m.id !== id);
        o.holds?.release([id]);
        here(job);
      });
    },
    async stop() {
      stopping = true;
      // Stopping, this thread takes nothing back: the worker begins what it was sent, and drains it.
      unclaimed.forget();
      afterAcks.flush();
      if (restartTimer) clearTimeout(restartTimer);
      const unstarted = waiting.map((m) => m.job);
      waiting = [];
      const done = new Promise<void>((ok) => {
        drained = ok;
      });
      await stopJobs(o, log, { unstarted, worker, done, inHand });
    },
    memory() {
      if (worker) send(worker, { kind: 'memory' });
    },
    metrics() {
      return worker && !stopping ? scrapes.ask(worker) : Promise.resolve([]);
    },
  };
}

/**
 * What an exited worker's jobs become. A worker reads its jobs only once it is ready, so one that never got
 * there (a restart while the store is down) began none of them: they are returned to wait for the next
 * worker, their holds kept, and nobody is told that something may have reached the service. A worker that
 * had begun loses what it had in hand, and the people behind it are told.
 */
function leftByExit(
  sent: [number, Job][],
  began: boolean,
  x: {
    o: WorkerHostOptions;
    log: Logger;
    tell(job: Job, text: (n: Notice) => string): unknown;
    code: number;
  },
): { id: number; job: Job }[] {
  if (!began) {
    x.log.error(
      { code: x.code, jobsWaiting: sent.length },
      'a new follow-up worker could not start; its jobs wait',
    );
    return sent.map(([id, job]) => ({ id, job }));
  }
  x.o.holds?.release(sent.map(([id]) => id));
  x.log.error({ code: x.code, jobsLost: sent.length }, 'the follow-up worker stopped; starting a new one');
  for (const [, job] of sent) void x.tell(job, interruptedText);
  return [];
}

/** A worker thread, its messages handled; `exited` learns whether it had become ready. */
function newWorker(
  script: URL,
  o: WorkerHostOptions,
  inHand: Map<number, Job>,
  log: Logger,
  life: WorkerLifecycle & { exited(code: number, began: boolean): void },
): Worker {
  const w = new Worker(script, { workerData: workerSetup(o.setup), resourceLimits: HEAP_LIMITS });
  let began = false;
  const started = () => {
    began = true;
    life.started();
  };
  w.on('message', (m: FromWorker) => onWorkerMessage(m, o, inHand, { ...life, started }));
  w.on('error', (e) => log.error({ err: e.stack ?? e.message }, 'the follow-up worker failed'));
  w.on('exit', (code) => life.exited(code, began));
  return w;
}

/**
 * A stop's end: the people of jobs no worker will take are told nothing was done; the worker drains, and
 * the people of jobs it could not finish in time are told so; then the holds are given back.
 */
async function stopJobs(
  o: WorkerHostOptions,
  log: Logger,
  s: { unstarted: Job[]; worker: Worker | undefined; done: Promise<void>; inHand: Map<number, Job> },
): Promise<void> {
  const told = s.unstarted.map((job) => tellAboutJob(o, log, job, restartingText));
  if (s.worker) {
    const cut = await drainOrEnd(s.worker, s.done, s.inHand, o.drainTimeoutMs ?? 20_000, log);
    told.push(...cut.map((job) => tellAboutJob(o, log, job, stoppedText)));
  }
  await Promise.race([Promise.allSettled(told), delay(TELL_AT_STOP_MS)]);
  // Everybody was answered or told: nothing is left for another replica to tell.
  await o.holds?.close();
}

/** Whether the worker has started: `ready` resolves when it has, and rejects when it could not. */
function startSignal() {
  let settle!: (error?: Error) => void;
  let started = false;
  const ready = new Promise<void>((ok, fail) => {
    settle = (error) => (error ? fail(error) : ok());
  });
  return {
    ready,
    isReady: () => started,
    ok(): void {
      started = true;
      settle();
    },
    failed(message: string): void {
      if (!started) settle(new Error(message));
    },
  };
}

/** The wait before the next restart: at once, then growing; back to at once after a calm minute. */
function restartPacer(): () => number {
  let crashes = 0;
  let lastCrash = 0;
  return () => {
    const now = Date.now();
    if (now - lastCrash > CALM_AFTER_MS) crashes = 0;
    lastCrash = now;
    return RESTART_DELAYS_MS[Math.min(crashes++, RESTART_DELAYS_MS.length - 1)] ?? 0;
  };
}

const delay = (ms: number) => new Promise((ok) => setTimeout(ok, ms).unref());

/** Jobs sent with a claim that the worker has not begun, each taken back when its time runs out. */
function unclaimedJobs(afterMs: number) {
  const pending = new Map<number, { timer: NodeJS.Timeout; takeBack: () => void }>();
  const take = (id: number) => {
    const p = pending.get(id);
    if (!p) return undefined;
    clearTimeout(p.timer);
    pending.delete(id);
    return p;
  };
  return {
    wait(id: number, takeBack: () => void): void {
      const timer = setTimeout(() => take(id)?.takeBack(), afterMs);
      timer.unref();
      pending.set(id, { timer, takeBack });
    },
    /** The worker asks to begin `id`: whether it may (this thread has not taken it back). */
    claim: (id: number): boolean => take(id) !== undefined,
    /** The worker is gone: what it had not begun is taken back now. */
    takeAllBack(): void {
      for (const id of [...pending.keys()]) take(id)?.takeBack();
    },
    /** Stopping: nothing is taken back any more; the worker begins what it was sent. */
    forget(): void {
      for (const id of [...pending.keys()]) take(id);
    },
  };
}

/** Tells the person behind a job the worker lost (or could not take), if it has one; failures are logged. */
async function tellAboutJob(
  o: WorkerHostOptions,
  log: Logger,
  job: Job,
  text: (n: Notice) => string,
): Promise<void> {
  const notice = noticeOf(job);
  if (!notice) return;
  await o
    .tell(notice, text(notice))
    .catch((e: unknown) =>
      log.warn({ err: e instanceof Error ? e.message : String(e) }, 'could not tell a user about a lost job'),
    );
}

interface WorkerLifecycle {
  started(): void;
  startFailed(message: string): void;
  drained(): void;
  metrics(id: number, metrics: ThreadMetrics): void;
  claim(id: number): void;
}

/** How long a scrape waits for the worker's metrics before it answers with this thread's alone. */
const SCRAPE_WAIT_MS = 2_000;

/** The scrapes of /metrics waiting for the worker's answer, by the ID of their question. */
function workerScrapes() {
  const waiting = new Map<number, (m: ThreadMetrics[]) => void>();
  let nextId = 1;
  return {
    ask(w: Worker): Promise<ThreadMetrics[]> {
      const id = nextId++;
      return new Promise<ThreadMetrics[]>((ok) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          ok([]);
        }, SCRAPE_WAIT_MS).unref();
        waiting.set(id, (m) => {
          clearTimeout(timer);
          waiting.delete(id);
          ok(m);
        });
        w.postMessage({ kind: 'metrics', id } satisfies ToWorker);
      });
    },
    answered(id: number, metrics: ThreadMetrics): void {
      waiting.get(id)?.([metrics]);
    },
  };
}

/** What the host does with each message its worker sends. */
function onWorkerMessage(
  m: FromWorker,
  o: WorkerHostOptions,
  inHand: Map<number, Job>,
  life: WorkerLifecycle,
): void {
  switch (m.kind) {
    case 'done':
      for (const id of m.ids) inHand.delete(id);
      o.holds?.release(m.ids);
      return;
    case 'ready':
      life.started();
      return;
    case 'start-failed':
      life.startFailed(m.message);
      return;
    case 'logs':
      // One write for the batch: each write to an async log stream that is still busy is appended to its
      // pending buffer, which is then measured again, so line by line a burst costs the acking thread
      // far more allocation than the lines themselves.
      o.writeLog(m.lines.join(''));
      return;
    case 'drained':
      life.drained();
      return;
    case 'slack-auth':
      o.onSlackAuthError?.(m.error);
      return;
    case 'store-writes':
      o.onStoreWrites?.(m.health);
      return;
    case 'metrics':
      life.metrics(m.id, m.metrics);
      return;
    case 'claim':
      life.claim(m.id);
      return;
  }
}

/**
 * Asks the worker to finish its jobs and ends it; the jobs it still had when `timeoutMs` ran out are
 * returned, for their people to be told.
 */
async function drainOrEnd(
  w: Worker,
  done: Promise<void>,
  inHand: Map<number, Job>,
  timeoutMs: number,
  log: Logger,
): Promise<Job[]> {
  w.postMessage({ kind: 'drain' } satisfies ToWorker);
  const timeout = new Promise<'timeout'>((ok) => setTimeout(() => ok('timeout'), timeoutMs).unref());
  if ((await Promise.race([done, timeout])) !== 'timeout') {
    await w.terminate();
    return [];
  }
  const cut = [...inHand.values()];
  inHand.clear();
  log.warn({ inHand: cut.length }, 'the follow-up worker did not finish in time; ending it');
  // Ended first, so that nobody gets both a late reply and this notice.
  await w.terminate();
  return cut;
}

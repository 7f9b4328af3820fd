import type { webApi } from '@slack/bolt';
import type { Store, WriteHealth } from '../core/records.js';
import { errText, type Logger } from '../log.js';

/** Slack's answers that mean the bot token no longer works: nothing the bot sends to Slack can succeed. */
export const SLACK_AUTH_ERRORS: readonly string[] = ['invalid_auth', 'token_revoked', 'account_inactive'];

/** The Slack error code of a Web API failure that says the token no longer works, else undefined. */
export function slackAuthError(e: unknown): string | undefined {
  const code = (e as { data?: { error?: unknown } } | null)?.data?.error;
  return typeof code === 'string' && SLACK_AUTH_ERRORS.includes(code) ? code : undefined;
}

/**
 * A Web API client class that tells `report` whenever a call is answered with one of `SLACK_AUTH_ERRORS`;
 * each call's own result or error is unchanged. A subclass, because every method (`chat.postMessage`, …)
 * is bound to `apiCall` when the client is constructed: wrapping an instance afterwards would miss them.
 * The class comes in as an argument, so that `@slack/web-api` still loads only where the bot builds one.
 */
export function watchingSlackAuth(
  Base: typeof webApi.WebClient,
  report: (error: string) => void,
): typeof webApi.WebClient {
  return class extends Base {
    override async apiCall(method: string, options?: Record<string, unknown>) {
      try {
        return await super.apiCall(method, options);
      } catch (e) {
        const code = slackAuthError(e);
        if (code) report(code);
        throw e;
      }
    }
  };
}

export interface ReadinessProblem {
  part: 'bot' | 'store' | 'slack';
  problem: string;
}

export type ReadinessReport = { ready: true } | { ready: false; problems: ReadinessProblem[] };

export interface ReadinessOptions {
  store: Pick<Store, 'appliedMigrations' | 'setState'>;
  /** Slack's `auth.test` with the bot token. */
  authTest(): Promise<unknown>;
  logger: Logger;
  /** How often Slack auth is checked while it works (default 60 s). */
  recheckMs?: number;
  /** A store that has not answered within this is unreachable (default 2 s). */
  storeTimeoutMs?: number;
}

/** While auth or store writes are failing, a probe checks again, but not more often than this. */
const FAILING_RECHECK_MS = 2_000;

/** The row a probe writes while writes are failing, to learn that they work again without traffic. */
const WRITE_PROBE_KEY = 'readiness.write-probe';

/**
 * The least a probe writes: a refused write's size is what its parameters carried, and the pages a real
 * insert touches (its table's and its indexes') weigh more than that, so the probe writes more.
 */
const WRITE_PROBE_MIN_BYTES = 16 * 1024;

/**
 * Whether the bot can do its work, for `GET /readyz`: it is running (not starting or stopping), its store
 * answers, and Slack accepts its token. The store is asked on every probe (one cheap read, bounded by a
 * timeout). Slack auth is learnt from `auth.test` at start, again every `recheckMs`, and at once whenever
 * a Web API call of either thread is answered `invalid_auth`, `token_revoked` or `account_inactive`;
 * while it fails, probes re-check it, so recovery shows without waiting for the next period.
 *
 * Store writes are learnt from the store itself: each thread's store reports when its writes fail (a full
 * disk, a read-only database, a lost connection) and when a write as large as the largest refused one
 * works again; a small write that fits where the bot's real ones do not (a row updated in place) does not
 * count. While any fails, a probe writes one row at least that large (at most every 2 s) and empties it
 * again; only when that works does the store take writes again.
 *
 * What `/readyz` says is in words and names no host, port or database user; the store's own message goes
 * to the log.
 */
export class Readiness {
  private phase: 'starting' | 'running' | 'stopping' = 'starting';
  private auth: { ok: true } | { ok: false; error: string } = { ok: true };
  private authCheckedAt = 0;
  private authCheck: Promise<void> | undefined;
  private storeCheck: Promise<ReadinessProblem | undefined> | undefined;
  /** The write problem each thread's store reported last, while it lasts. */
  private readonly writeFailures = new Map<string, { problem: string; detail: string; bytes: number }>();
  private writeProbe: Promise<void> | undefined;
  private writeProbedAt = 0;
  /** How many probes found writes still refused since they started failing (the tests wait on it). */
  refusedProbes = 0;
  /** The store's own words for the last failure of the read on every probe, so the log says it once. */
  private lastStoreDetail: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly log: Logger;

  constructor(private readonly o: ReadinessOptions) {
    this.log = o.logger.child({ part: 'readiness' });
  }

  /** Learns Slack auth now and keeps re-checking it; the bot is ready from here on. */
  async start(): Promise<void> {
    await this.checkAuth();
    this.phase = 'running';
    this.timer = setInterval(() => void this.checkAuth(), this.o.recheckMs ?? 60_000);
    this.timer.unref();
  }

  /** Shutting down: not ready, whatever the parts say. */
  stopping(): void {
    this.phase = 'stopping';
    if (this.timer) clearInterval(this.timer);
  }

  /** A Web API call was answered with an auth error. */
  slackAuthFailed(error: string): void {
    if (this.auth.ok || this.auth.error !== error)
      this.log.error({ error }, 'Slack rejects the bot token; not ready until it accepts it again');
    this.auth = { ok: false, error };
    this.authCheckedAt = Date.now();
  }

  /** A thread's store says a write failed, or that writes as large as the refused ones work again. */
  storeWrites(thread: string, health: WriteHealth): void {
    if (health.ok) {
      if (this.writeFailures.delete(thread) && this.writeFailures.size === 0) {
        this.refusedProbes = 0;
        this.log.info({ thread }, 'the store takes writes again');
      }
      return;
    }
    const before = this.writeFailures.get(thread);
    if (before?.detail !== health.detail)
      this.log.error(
        { thread, problem: health.detail },
        'the store refuses writes; not ready until it takes one as large as those it refused',
      );
    this.writeFailures.set(thread, {
      problem: health.problem,
      detail: health.detail,
      bytes: Math.max(health.bytes, before?.bytes ?? 0),
    });
  }

  async report(): Promise<ReadinessReport> {
    if (!this.auth.ok && Date.now() - this.authCheckedAt >= FAILING_RECHECK_MS) await this.checkAuth();
    if (this.writeFailures.size && Date.now() - this.writeProbedAt >= FAILING_RECHECK_MS)
      await this.probeWrites();
    const problems: ReadinessProblem[] = [];
    if (this.phase !== 'running') problems.push({ part: 'bot', problem: `the bot is ${this.phase}` });
    const store = await this.checkStore();
    if (store) problems.push(store);
    // A store that does not answer at all says it already; its failing writes are the same problem.
    const [writes] = this.writeFailures.values();
    if (writes && !store)
      problems.push({ part: 'store', problem: `the store refuses writes: ${writes.problem}` });
    if (!this.auth.ok)
      problems.push({ part: 'slack', problem: `Slack rejects the bot token (${this.auth.error})` });
    return problems.length ? { ready: false, problems } : { ready: true };
  }

  private get storeTimeoutMs(): number {
    return this.o.storeTimeoutMs ?? 2_000;
  }

  private checkAuth(): Promise<void> {
    this.authCheck ??= (async () => {
      try {
        await this.o.authTest();
        if (!this.auth.ok) this.log.info('Slack accepts the bot token again');
        this.auth = { ok: true };
      } catch (e) {
        const code = slackAuthError(e);
        if (code) this.slackAuthFailed(code);
        // Slack unreachable or rate-limited says nothing about the token: the last answer stands.
        else this.log.warn({ err: errText(e) }, 'could not check Slack auth; keeping the last answer');
      } finally {
        this.authCheckedAt = Date.now();
        this.authCheck = undefined;
      }
    })();
    return this.authCheck;
  }

  /**
   * One write as large as any refused (and at least `WRITE_PROBE_MIN_BYTES`), then the row emptied so that
   * real writes have its room; when both work the store takes writes again, whichever thread's failed.
   */
  private probeWrites(): Promise<void> {
    this.writeProbe ??= (async () => {
      const startedAt = Date.now();
      let bytes = WRITE_PROBE_MIN_BYTES;
      for (const f of this.writeFailures.values()) bytes = Math.max(bytes, 2 * f.bytes);
      try {
        const write = (value: unknown) =>
          withinMs(this.o.store.setState(WRITE_PROBE_KEY, value, startedAt), this.storeTimeoutMs);
        await write({ at: startedAt, room: 'x'.repeat(bytes) });
        await write({ at: startedAt });
        if (this.writeFailures.size) this.log.info('the store takes writes again');
        this.writeFailures.clear();
        this.refusedProbes = 0;
      } catch {
        // the store reports the failure itself, through storeWrites
        this.refusedProbes++;
      } finally {
        this.writeProbedAt = Date.now();
        this.writeProbe = undefined;
      }
    })();
    return this.writeProbe;
  }

  private checkStore(): Promise<ReadinessProblem | undefined> {
    this.storeCheck ??= (async () => {
      try {
        await withinMs(this.o.store.appliedMigrations(), this.storeTimeoutMs);
        if (this.lastStoreDetail) this.log.info('the store answers again');
        this.lastStoreDetail = undefined;
        return undefined;
      } catch (e) {
        // The store's own message can name its host, port and user: the log has it, /readyz does not.
        const detail = errText(e);
        if (detail !== this.lastStoreDetail) this.log.error({ err: detail }, 'the store does not answer');
        this.lastStoreDetail = detail;
        const problem =
          e instanceof NoAnswer
            ? `the store did not answer within ${this.storeTimeoutMs / 1000} s`
            : 'the store does not answer';
        return { part: 'store' as const, problem };
      } finally {
        this.storeCheck = undefined;
      }
    })();
    return this.storeCheck;
  }
}

class NoAnswer extends Error {}

/** `p`, or a failure saying it did not answer within `ms`. */
async function withinMs<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new NoAnswer(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

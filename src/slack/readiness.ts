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
 * Whether the bot can do its work, for `GET /readyz`: it is running (not starting or stopping), its store
 * answers, and Slack accepts its token. The store is asked on every probe (one cheap read, bounded by a
 * timeout). Slack auth is learnt from `auth.test` at start, again every `recheckMs`, and at once whenever
 * a Web API call of either thread is answered `invalid_auth`, `token_revoked` or `account_inactive`;
 * while it fails, probes re-check it, so recovery shows without waiting for the next period.
 *
 * Store writes are learnt from the store itself: each thread's store reports when its writes start failing
 * (a full disk, a read-only database, a lost connection) and when one works again. While any fails, a
 * probe writes one row (at most every 2 s); when that works, the store takes writes again.
 */
export class Readiness {
  private phase: 'starting' | 'running' | 'stopping' = 'starting';
  private auth: { ok: true } | { ok: false; error: string } = { ok: true };
  private authCheckedAt = 0;
  private authCheck: Promise<void> | undefined;
  private storeCheck: Promise<ReadinessProblem | undefined> | undefined;
  /** The write problem each thread's store reported last, while it lasts. */
  private readonly writeFailures = new Map<string, string>();
  private writeProbe: Promise<void> | undefined;
  private writeProbedAt = 0;
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

  /** A thread's store says its writes started failing, or work again. */
  storeWrites(thread: string, health: WriteHealth): void {
    if (health.ok) {
      if (this.writeFailures.delete(thread) && this.writeFailures.size === 0)
        this.log.info({ thread }, 'the store takes writes again');
      return;
    }
    if (this.writeFailures.get(thread) !== health.problem)
      this.log.error(
        { thread, problem: health.problem },
        'the store refuses writes; not ready until it takes one',
      );
    this.writeFailures.set(thread, health.problem);
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
    if (writes && !store) problems.push({ part: 'store', problem: `the store refuses writes: ${writes}` });
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

  /** One write; when it works the store takes writes again, whichever thread's writes failed. */
  private probeWrites(): Promise<void> {
    this.writeProbe ??= (async () => {
      const startedAt = Date.now();
      try {
        await withinMs(this.o.store.setState(WRITE_PROBE_KEY, startedAt, startedAt), this.storeTimeoutMs);
        if (this.writeFailures.size) this.log.info('the store takes writes again');
        this.writeFailures.clear();
      } catch {
        // the store reports the failure itself, through storeWrites
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
        return undefined;
      } catch (e) {
        return { part: 'store' as const, problem: `the store does not answer: ${errText(e)}` };
      } finally {
        this.storeCheck = undefined;
      }
    })();
    return this.storeCheck;
  }
}

/** `p`, or a failure saying it did not answer within `ms`. */
async function withinMs<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

import type { webApi } from '@slack/bolt';
import type { Store } from '../core/records.js';
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
  store: Pick<Store, 'appliedMigrations'>;
  /** Slack's `auth.test` with the bot token. */
  authTest(): Promise<unknown>;
  logger: Logger;
  /** How often Slack auth is checked while it works (default 60 s). */
  recheckMs?: number;
  /** A store that has not answered within this is unreachable (default 2 s). */
  storeTimeoutMs?: number;
}

/** While auth is failing, a probe checks again, but not more often than this. */
const FAILING_RECHECK_MS = 2_000;

/**
 * Whether the bot can do its work, for `GET /readyz`: it is running (not starting or stopping), its store
 * answers, and Slack accepts its token. The store is asked on every probe (one cheap read, bounded by a
 * timeout). Slack auth is learnt from `auth.test` at start, again every `recheckMs`, and at once whenever
 * a Web API call of either thread is answered `invalid_auth`, `token_revoked` or `account_inactive`;
 * while it fails, probes re-check it, so recovery shows without waiting for the next period.
 */
export class Readiness {
  private phase: 'starting' | 'running' | 'stopping' = 'starting';
  private auth: { ok: true } | { ok: false; error: string } = { ok: true };
  private authCheckedAt = 0;
  private authCheck: Promise<void> | undefined;
  private storeCheck: Promise<ReadinessProblem | undefined> | undefined;
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

  async report(): Promise<ReadinessReport> {
    if (!this.auth.ok && Date.now() - this.authCheckedAt >= FAILING_RECHECK_MS) await this.checkAuth();
    const problems: ReadinessProblem[] = [];
    if (this.phase !== 'running') problems.push({ part: 'bot', problem: `the bot is ${this.phase}` });
    const store = await this.checkStore();
    if (store) problems.push(store);
    if (!this.auth.ok)
      problems.push({ part: 'slack', problem: `Slack rejects the bot token (${this.auth.error})` });
    return problems.length ? { ready: false, problems } : { ready: true };
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

  private checkStore(): Promise<ReadinessProblem | undefined> {
    this.storeCheck ??= (async () => {
      const ms = this.o.storeTimeoutMs ?? 2_000;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
      });
      try {
        await Promise.race([this.o.store.appliedMigrations(), timeout]);
        return undefined;
      } catch (e) {
        return { part: 'store' as const, problem: `the store does not answer: ${errText(e)}` };
      } finally {
        clearTimeout(timer);
        this.storeCheck = undefined;
      }
    })();
    return this.storeCheck;
  }
}

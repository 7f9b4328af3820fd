import { isStoreUnavailable } from './availability.js';

/**
 * SQLite's and PostgreSQL's answers that say the store refuses to keep a write (a full disk, a read-only
 * file or database, a revoked privilege): the statement was fine, the store would not take it.
 */
const SQLITE_REFUSED = /^SQLITE_(FULL|READONLY|PERM)/;
const PG_REFUSED = new Set(['53100', '25006', '42501', '53200', '54000']);

/** True when `e` says the store refused a write; trying the same write again later may work. */
export function isStoreWriteRefused(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && (SQLITE_REFUSED.test(code) || PG_REFUSED.has(code));
}

/** True when the store, not the statement, failed: it could not be reached, or refused the write. */
export function isStoreFault(e: unknown): boolean {
  return isStoreWriteRefused(e) || isStoreUnavailable(e);
}

/** Whether the store takes writes, as its last write (on this handle) found. */
export type WriteHealth = { ok: true } | { ok: false; problem: string };

/** A short reason an operator can act on, without the statement or its values. */
export function describeStoreFault(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  const said = e instanceof Error ? e.message.split('\n')[0]!.slice(0, 200) : String(e);
  return typeof code === 'string' && !said.includes(code) ? `${said} (${code})` : said;
}

/**
 * What an engine reports into: every write's end. Listeners hear only the changes (failing with a new
 * problem, or working again), so a busy store costs nothing here.
 */
export class WriteHealthSignal {
  private state: WriteHealth = { ok: true };
  private readonly listeners = new Set<(h: WriteHealth) => void>();

  get current(): WriteHealth {
    return this.state;
  }

  /** A write went through. */
  wrote(): void {
    if (!this.state.ok) this.change({ ok: true });
  }

  /** A write failed: only the store's own faults count, a bad statement says nothing of the store. */
  failed(e: unknown): void {
    if (!isStoreFault(e)) return;
    const problem = describeStoreFault(e);
    if (this.state.ok || this.state.problem !== problem) this.change({ ok: false, problem });
  }

  /** Calls `listener` on every change from now on; returns the function that stops it. */
  watch(listener: (h: WriteHealth) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private change(h: WriteHealth): void {
    this.state = h;
    for (const l of this.listeners) {
      try {
        l(h);
      } catch {
        // a listener's failure is its own
      }
    }
  }
}

/** Whether a statement writes: how an engine tells which ends to report. */
export const writesData = (sql: string): boolean => /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql);

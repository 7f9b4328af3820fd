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

/**
 * Whether the store takes writes, as its writes (on this handle) found. While it refuses them, `bytes` is
 * the size of the largest write it refused: a smaller write that fits says nothing of the ones the bot needs.
 */
export type WriteHealth =
  | { ok: true }
  /** `problem` in words for anyone (`its disk is full`); `detail` the store's own message, for the log. */
  | { ok: false; problem: string; detail: string; bytes: number };

/** A short reason an operator can act on, without the statement or its values. */
export function describeStoreFault(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  const said = e instanceof Error ? e.message.split('\n')[0]!.slice(0, 200) : String(e);
  return typeof code === 'string' && !said.includes(code) ? `${said} (${code})` : said;
}

/** What a store's refusal means, in words that name no host, port, user or statement. */
export function storeRefusalInWords(e: unknown): string {
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  if (code === 'SQLITE_FULL' || code === '53100') return 'its disk is full';
  if (/^SQLITE_READONLY/.test(code) || code === '25006') return 'it is read-only';
  if (/^SQLITE_PERM/.test(code) || code === '42501') return 'the bot may not write to it';
  if (code === '53200' || code === '54000') return 'it is out of memory or past one of its limits';
  return 'it cannot be reached';
}

/** The bytes a write's parameters carry: how the engines weigh a write against the ones refused. */
export function paramBytes(params: readonly unknown[]): number {
  let n = 0;
  for (const p of params) {
    if (typeof p === 'string') n += Buffer.byteLength(p);
    else if (p instanceof Uint8Array) n += p.byteLength;
    else if (p !== null && p !== undefined) n += 8;
  }
  return n;
}

/**
 * What an engine reports into: every write's end, with the bytes it carried. Listeners hear the changes
 * and every refusal (refusals are rare, and the readiness on another thread must hear each), so a busy
 * store that works costs nothing here.
 *
 * A store that refuses writes for want of room takes small ones still: an update of a row in place, or a
 * write-ahead log reused from its start, fits where an insert that needs new pages does not. So after a
 * refusal, only a write at least as large as the largest refused one says that writes work again; a
 * store that was unreachable is back at its first write.
 */
export class WriteHealthSignal {
  private state: WriteHealth = { ok: true };
  private readonly listeners = new Set<(h: WriteHealth) => void>();

  get current(): WriteHealth {
    return this.state;
  }

  /** A write of `bytes` went through. */
  wrote(bytes = Number.POSITIVE_INFINITY): void {
    if (!this.state.ok && bytes >= this.state.bytes) this.change({ ok: true });
  }

  /** A write of `bytes` failed: only the store's own faults count, a bad statement says nothing of it. */
  failed(e: unknown, bytes = 0): void {
    if (!isStoreFault(e)) return;
    const weight = isStoreWriteRefused(e) ? bytes : 0;
    const before = this.state.ok ? 0 : this.state.bytes;
    this.change({
      ok: false,
      problem: storeRefusalInWords(e),
      detail: describeStoreFault(e),
      bytes: Math.max(before, weight),
    });
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

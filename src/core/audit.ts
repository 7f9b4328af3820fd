import {
  type NewAuditEntry,
  retryWhileUnavailable,
  type Store,
  type WriteRetryOptions,
} from '../store/index.js';

/** What the audit writer needs of the store. */
export type AuditStore = Pick<Store, 'appendAudit' | 'listAudit'>;

/**
 * The one writer of the audit log: every line the bot records goes through here, handed on by the
 * operation runner, so what is audited and how cannot differ between the paths that lead to it.
 */
export class AuditLog {
  constructor(private readonly store: AuditStore) {}

  /** Appends the entries in order; a failure is thrown to the caller, which decides what it means. */
  async write(entries: readonly NewAuditEntry[]): Promise<void> {
    for (const entry of entries) await this.store.appendAudit(entry);
  }

  /**
   * Appends an entry for something already done, through a store outage, once: an attempt after a failed
   * one first looks for the entry, because a connection can break after the insert committed and before
   * the bot heard so.
   */
  async writeSurely(entry: NewAuditEntry, o: WriteRetryOptions = {}): Promise<void> {
    await retryWhileUnavailable(async (attempt) => {
      if (attempt > 1 && (await this.alreadyWritten(entry))) return;
      await this.write([entry]);
    }, o);
  }

  private async alreadyWritten(e: NewAuditEntry): Promise<boolean> {
    const recent = await this.store.listAudit({
      ...(e.channelId !== undefined ? { channelId: e.channelId } : {}),
      operationPrefixes: [e.operation],
      limit: 200,
    });
    return recent.some(
      (x) =>
        x.operation === e.operation &&
        x.at === e.at &&
        x.userId === e.userId &&
        x.outcome === e.outcome &&
        x.flowId === (e.flowId ?? null) &&
        x.requestId === (e.requestId ?? null),
    );
  }
}

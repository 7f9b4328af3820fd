import {
  type AuditResult,
  type NewAuditEntry,
  retryWhileUnavailable,
  type Store,
  type WriteRetryOptions,
} from '../store/index.js';

/** What the audit writer needs of the store. */
export type AuditStore = Pick<Store, 'appendAudit' | 'listAudit' | 'completeAudit'>;

/** What an entry written before its service call says until the answer is recorded over it. */
export const ANSWER_NOT_RECORDED =
  "The bot did not record the service's answer (it stopped, or its database failed first); check the service's Activity view.";

/**
 * The one writer of the audit log: every line the bot records goes through here, handed on by the
 * operation runner, so what is audited and how cannot differ between the paths that lead to it.
 */
export class AuditLog {
  constructor(
    private readonly store: AuditStore,
    private readonly surface?: string,
  ) {}

  /**
   * The same log, each line it writes naming the surface of the gate that asked (core/gate/surfaces.ts) as
   * its `via`: a next-step button is audited as a button, a schedule's run as the schedule.
   */
  via(surface: string): AuditLog {
    return new AuditLog(this.store, surface);
  }

  private stamped(entry: NewAuditEntry): NewAuditEntry {
    if (!this.surface || entry.params?.via !== undefined) return entry;
    return { ...entry, params: { ...entry.params, via: this.surface } };
  }

  /** Appends the entries in order; a failure is thrown to the caller, which decides what it means. */
  async write(entries: readonly NewAuditEntry[]): Promise<void> {
    for (const entry of entries) await this.store.appendAudit(this.stamped(entry));
  }

  /**
   * Appends an entry for something already done, through a store outage, once: an attempt after a failed
   * one first looks for the entry, because a connection can break after the insert committed and before
   * the bot heard so.
   */
  async writeSurely(entry: NewAuditEntry, o: WriteRetryOptions = {}): Promise<void> {
    await retryWhileUnavailable(async (attempt) => {
      if (attempt > 1 && (await this.alreadyWritten(this.stamped(entry)))) return;
      await this.write([entry]);
    }, o);
  }

  /**
   * Writes the entry of something about to be done, before it is done, as outcome unknown; returns its
   * ID for `complete`. A failure is thrown: whoever asked must then not do it, so that nothing the
   * service does on the bot's behalf is missing from the log.
   */
  async intend(entry: Omit<NewAuditEntry, 'outcome' | 'error'>): Promise<number> {
    const row = await this.store.appendAudit(
      this.stamped({ ...entry, outcome: 'unknown', error: ANSWER_NOT_RECORDED }),
    );
    return row.id;
  }

  /** Records the result over an intended entry, through a store outage (writing it twice is harmless). */
  async complete(id: number, result: AuditResult, o: WriteRetryOptions = {}): Promise<void> {
    await retryWhileUnavailable(() => this.store.completeAudit(id, result), o);
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

import type { Store } from '../store/index.js';
import { type Now, nowMs } from './clock.js';
import { every } from './every.js';

/** How long the store keeps what it no longer needs, in days (see docs/store-and-approvals.md). */
export const RETENTION_DEFAULT_DAYS = { audit: 365, approvals: 90, flows: 30 } as const;

const DAY_MS = 86_400_000;
const DEFAULT_BATCH = 500;
const DEFAULT_INTERVAL_MS = 6 * 3_600_000;

/** The few log lines the pruner writes; the bot's pino logger fits. */
export interface RetentionLog {
  info(o: object, msg: string): void;
  error(o: object, msg: string): void;
}

export interface RetentionOptions {
  /** Audit entries older than this are deleted; `Infinity` keeps them for ever. */
  auditDays?: number;
  /** Finished approval requests (decided and done, rejected, expired) older than this. */
  approvalDays?: number;
  /** Flows whose end was told longer ago than this. */
  flowDays?: number;
  /** Rows per delete statement (default 500), so that no delete holds the database for long. */
  batchSize?: number;
  now?: Now;
}

export interface Pruned {
  audit: number;
  approvals: number;
  flows: number;
}

function days(name: string, value: number | undefined, fallback: number): number {
  const d = value ?? fallback;
  if (!(d > 0)) throw new RangeError(`${name} must be a number of days above 0 (Infinity keeps for ever)`);
  return d;
}

/**
 * Deletes, batch by batch, what is older than its retention: audit entries, finished approval requests,
 * flows no longer followed. The event loop runs between batches; `stopped` ends the pass between them.
 */
export async function pruneRetained(
  store: Store,
  o: RetentionOptions = {},
  stopped: () => boolean = () => false,
): Promise<Pruned> {
  const now = nowMs(o.now);
  const batch = Math.max(1, Math.floor(o.batchSize ?? DEFAULT_BATCH));
  const cutoff = (d: number) => (Number.isFinite(d) ? now - d * DAY_MS : null);
  const drain = async (before: number | null, prune: (before: number, limit: number) => Promise<number>) => {
    let total = 0;
    while (before !== null && !stopped()) {
      const n = await prune(before, batch);
      total += n;
      if (n < batch) break;
      await new Promise((r) => setImmediate(r));
    }
    return total;
  };
  const auditBefore = cutoff(days('auditDays', o.auditDays, RETENTION_DEFAULT_DAYS.audit));
  const approvalsBefore = cutoff(days('approvalDays', o.approvalDays, RETENTION_DEFAULT_DAYS.approvals));
  const flowsBefore = cutoff(days('flowDays', o.flowDays, RETENTION_DEFAULT_DAYS.flows));
  return {
    audit: await drain(auditBefore, (b, l) => store.pruneAudit(b, l)),
    approvals: await drain(approvalsBefore, (b, l) => store.pruneApprovals(b, l)),
    flows: await drain(flowsBefore, (b, l) => store.pruneTrackedFlows(b, l)),
  };
}

/**
 * Prunes now and then every `intervalMs` (default 6 h). Passes never overlap; a failing pass is logged
 * and the next one runs as usual. Replicas may prune at once: each row is deleted once. Bad retention
 * values throw here, at start.
 */
export function startRetentionPruner(
  store: Store,
  o: RetentionOptions & { intervalMs?: number; logger?: RetentionLog } = {},
): { stop(): Promise<void> } {
  days('auditDays', o.auditDays, RETENTION_DEFAULT_DAYS.audit);
  days('approvalDays', o.approvalDays, RETENTION_DEFAULT_DAYS.approvals);
  days('flowDays', o.flowDays, RETENTION_DEFAULT_DAYS.flows);
  return every(o.intervalMs ?? DEFAULT_INTERVAL_MS, (stopped) =>
    pruneRetained(store, o, stopped).then(
      (pruned) => {
        if (pruned.audit || pruned.approvals || pruned.flows) {
          o.logger?.info({ pruned }, 'store retention: old records deleted');
        }
      },
      (err: unknown) => o.logger?.error({ err }, 'store retention: pruning failed; trying again later'),
    ),
  );
}

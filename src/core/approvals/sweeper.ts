import type { ApprovalRequest } from '../../store/index.js';
import { every } from '../every.js';
import type { Approvals } from './desk.js';

export interface SweeperOptions {
  intervalMs?: number;
  /**
   * Called with the requests this sweep decided by itself: expired, or marked outcome unknown because the
   * process executing them died (e.g. to update their Slack messages).
   */
  onDecided?: (decided: {
    expired: ApprovalRequest[];
    interrupted: ApprovalRequest[];
  }) => void | Promise<void>;
  onError?: (err: unknown) => void;
}

/**
 * Every `intervalMs` (default 30 s): expires due requests, and marks outcome unknown the executions whose
 * process died mid-way (`Approvals.recoverInterrupted`), so no request stays executing for ever while
 * any replica runs. Sweeps never overlap; a failing sweep is reported and the next one runs as usual.
 * Several replicas may sweep at once: each request is decided once.
 */
export function startApprovalSweeper(
  approvals: Approvals,
  options: SweeperOptions = {},
): { stop(): Promise<void> } {
  return every(
    options.intervalMs ?? 30_000,
    async () => {
      try {
        const expired = await approvals.expireDue();
        const interrupted = await approvals.recoverInterrupted();
        if (expired.length || interrupted.length) await options.onDecided?.({ expired, interrupted });
      } catch (err) {
        options.onError?.(err);
      }
    },
    { later: true },
  );
}

import type { ApprovalRequest } from '../../store/index.js';
import type { Approvals } from './workflow.js';

export interface SweeperOptions {
  intervalMs?: number;
  /** Called with the requests this sweep expired (e.g. to update their Slack messages). */
  onExpired?: (expired: ApprovalRequest[]) => void | Promise<void>;
  onError?: (err: unknown) => void;
}

/**
 * Expires due requests every `intervalMs` (default 30 s). Sweeps never overlap; a failing sweep is
 * reported and the next one runs as usual. Several replicas may sweep at once: each request expires once.
 */
export function startExpirySweeper(
  approvals: Approvals,
  options: SweeperOptions = {},
): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const sweep = () => {
    if (running) return;
    running = (async () => {
      try {
        const expired = await approvals.expireDue();
        if (expired.length) await options.onExpired?.(expired);
      } catch (err) {
        options.onError?.(err);
      } finally {
        running = undefined;
      }
    })();
  };
  const timer = setInterval(sweep, options.intervalMs ?? 30_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

import type { ServiceCalls } from '../../api/index.js';
import { observeServiceCall } from '../../metrics/metrics.js';
import type { OpOutcome } from '../outcome.js';
import type { RangeEcho } from './registry/describe.js';
import { entryOfOperation, type ServiceOperation } from './registry/index.js';

export { ACTIVITY_VIEW_HINT, type RangeEcho, toDataspec } from './registry/describe.js';
export type { ServiceOperation };

/**
 * Runs a resolved request against the service through its registry entry and describes the outcome.
 * Service failures become user sentences; the caller decides where the outcome is shown.
 */
export async function execute(
  req: ServiceOperation,
  service: ServiceCalls,
  echo: RangeEcho,
): Promise<OpOutcome> {
  const entry = entryOfOperation(req.kind);
  if (!entry) throw new Error(`no operation ${req.kind} in the registry`);
  const started = performance.now();
  const outcome = await entry.execute(req, service, echo);
  const seconds = (performance.now() - started) / 1000;
  observeServiceCall(req.kind, outcome.ok ? 'ok' : outcome.outcomeUnknown ? 'unknown' : 'error', seconds);
  return outcome;
}

import type { ServiceCalls } from '../../api/index.js';
import { observeServiceCall } from '../../metrics/metrics.js';
import type { OpOutcome } from '../outcome.js';
import type { RangeEcho } from './registry/describe.js';
import { entryOf, type ServiceOperation } from './registry/index.js';

export { ACTIVITY_VIEW_HINT, type RangeEcho, toDataspec } from './registry/describe.js';
export type { ServiceOperation };

/**
 * Runs a resolved request against the service through its registry entry and describes the outcome:
 * the entry's declared call is sent by the one generic client call, its flow type put into its body.
 * Service failures become user sentences; the caller decides where the outcome is shown.
 */
export async function execute(
  req: ServiceOperation,
  service: ServiceCalls,
  echo: RangeEcho,
): Promise<OpOutcome> {
  const entry = entryOf(req);
  const { flowType } = entry.wire;
  const started = performance.now();
  const outcome = await entry.execute(req, {
    send: ({ ids, body }) =>
      service.call(entry.wire, {
        ...(ids ? { ids } : {}),
        ...(body !== undefined ? { body: flowType ? { flowType: flowType.of(req), ...body } : body } : {}),
      }),
    service,
    echo,
  });
  const seconds = (performance.now() - started) / 1000;
  observeServiceCall(req.kind, outcome.ok ? 'ok' : outcome.outcomeUnknown ? 'unknown' : 'error', seconds);
  return outcome;
}

import { requestParams } from '../../core/operations/params.js';
import type { OpRequest } from '../../core/operations/requests.js';
import type { OpOutcome } from '../../core/outcome.js';
import type { CommandInvocation } from '../deps.js';
import type { Governance } from './index.js';

/** The audit operation of a command that changes something at the service; null for lookups. */
export function auditOperation(request: OpRequest): string | null {
  switch (request.kind) {
    case 'workspace-create':
      return 'workspace.create';
    case 'model-move':
      return 'model.move';
    case 'eval':
      return 'flow.EVAL';
    case 'learn':
    case 'relearn':
      return 'flow.ANOMALYLEARN';
    case 'score':
      return 'flow.ANOMALYEVAL';
    default:
      return null;
  }
}

/** The bot's `recordOutcome` hook: every mutating command that reached the service goes to the audit log. */
export async function recordOutcome(
  gov: Governance,
  r: CommandInvocation & { request: OpRequest; outcome: OpOutcome },
): Promise<void> {
  const operation = auditOperation(r.request);
  if (!operation) return;
  const { outcome, command } = r;
  await gov.store.appendAudit({
    at: gov.now().getTime(),
    userId: command.user_id,
    teamId: command.team_id,
    channelId: command.channel_id,
    operation,
    params: requestParams(r.request),
    ...(outcome.ok
      ? {
          outcome: 'ok' as const,
          ...(outcome.flow ? { flowId: outcome.flow.id, flowStatus: outcome.flow.status } : {}),
        }
      : {
          outcome: outcome.outcomeUnknown ? ('unknown' as const) : ('error' as const),
          error: outcome.message,
        }),
  });
}

import type { Schedule, Store } from '../../store/index.js';
import { guaranteeOf } from '../gate/guarantees.js';
import { interpretCommand, withNotes } from '../interpret.js';
import type { Actor, Operation, OperationResult } from '../operations/operation.js';
import type { Operations } from '../operations/run.js';
import type { RunReport } from './runner.js';

export interface PerformDeps {
  store: Store;
  operations: Operations;
  /** The owner's display name, for the names of what a run creates. */
  displayName?: (userId: string) => Promise<string | undefined>;
  /** The owner's Slack locale now: a range typed in their language is read in it at every run. */
  localeOf?: (userId: string) => Promise<string | undefined>;
}

export interface Performed {
  actor: Actor;
  result: OperationResult;
  /** A line the result has no place for (what quoted names stood for). */
  unsaid?: string;
  /** What the store keeps of it, and what it does to the schedule. */
  report: RunReport;
}

/**
 * One planned run: the stored command text read again as if typed at the run's instant (so "last 8
 * hours" is the 8 hours before it), in the schedule's zone and its owner's locale, by its owner; then the one runner (policy,
 * identity as the owner, audit, the service call, following the flow). Nothing here differs by operation.
 */
export async function performScheduled(
  deps: PerformDeps,
  s: Schedule,
  plannedAt: number,
): Promise<Performed> {
  const userName = await deps.displayName?.(s.ownerId).catch(() => undefined);
  const locale = await deps.localeOf?.(s.ownerId).catch(() => undefined);
  const actor: Actor = {
    userId: s.ownerId,
    ...(userName ? { userName } : {}),
    ...(s.teamId ? { teamId: s.teamId } : {}),
    channelId: s.channelId,
    asked: `/tsai ${s.command}`,
    timeZone: s.timeZone,
    via: 'command',
    surface: 'schedule',
  };
  const read = await interpretCommand(deps.store, {
    text: s.command,
    ...(s.teamId ? { teamId: s.teamId } : {}),
    channelId: s.channelId,
    now: () => new Date(plannedAt),
    person: async () => ({
      ...(userName ? { userName } : {}),
      timeZone: s.timeZone,
      ...(locale ? { locale } : {}),
    }),
  });
  if (read.kind === 'refused') return performed(actor, read.failure);
  if (read.kind !== 'run')
    return performed(actor, {
      ok: false,
      message:
        'This command no longer runs on its own (it now needs a form or is not an operation); nothing was sent.',
    });
  let op: Operation = read.operation;
  if (op.kind === 'live-request') {
    // Approved once as a schedule: each run is the approved live start or stop itself, as an approved
    // request's flow is. The gate checks that approval (the schedule's, under the rule that decides its
    // model now) as one more condition, beside the owner's own rights and the live pre-checks.
    if (!op.modelId)
      return performed(actor, {
        ok: false,
        message: 'A scheduled live start or stop names its model; nothing was sent.',
      });
    const at = new Date(plannedAt).toISOString().slice(0, 16).replace('T', ' ');
    op = {
      kind: 'live-model',
      action: op.action,
      modelId: op.modelId,
      name: `live ${op.action} ${op.modelId}, scheduled ${s.whenText}, ${at}Z`,
      approvalId: `schedule:${s.id}`,
      requesterId: s.ownerId,
    };
  }
  const result = await deps.operations.run(actor, op);
  const unsaid = withNotes(result, read.notes);
  const report = reportOf(result);
  // The approval no longer stands: it goes back to the approvers who decide its model now.
  if (!result.ok && result.refusedBy === 'approval' && op.kind === 'live-model')
    report.reapprove = {
      reason: result.message,
      approvers: await deps.operations.approvers.route(op.modelId, s.teamId ?? undefined),
    };
  return { actor, result, ...(unsaid ? { unsaid } : {}), report };
}

function performed(actor: Actor, result: OperationResult): Performed {
  return { actor, result, report: reportOf(result) };
}

/** What the store keeps of a run's result, and whether it stops the schedule running as its owner. */
export function reportOf(result: OperationResult): RunReport {
  if (result.ok) {
    const flowId = result.kind === 'service' ? result.flow?.id : undefined;
    return { outcome: 'ok', ...(flowId ? { flowId } : {}) };
  }
  if (result.refusedBy && guaranteeOf(result.refusedBy).ownerRight)
    return {
      outcome: 'refused',
      detail: result.message,
      pause: {
        reason: `its owner ${result.lost ?? 'may no longer run it'}`,
        ...(result.connect ? { connect: result.connect } : {}),
        ownerReachable: result.refusedBy !== 'standing',
      },
    };
  if (result.connect) return { outcome: 'refused', detail: result.message, reconnect: true };
  if (result.outcomeUnknown) return { outcome: 'unknown', detail: result.message };
  // Refused by the bot before anything was sent (the gate, bad input), or by the service.
  return {
    outcome: result.status === undefined && (result.refusal || result.refusedBy) ? 'refused' : 'failed',
    detail: result.message,
  };
}

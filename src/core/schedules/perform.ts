import type { Schedule, Store } from '../../store/index.js';
import { interpretCommand, withNotes } from '../interpret.js';
import type { Actor, Operation, OperationResult } from '../operations/operation.js';
import type { Operations } from '../operations/run.js';
import type { RunReport } from './runner.js';

export interface PerformDeps {
  store: Store;
  operations: Operations;
  /** The owner's display name, for the names of what a run creates. */
  displayName?: (userId: string) => Promise<string | undefined>;
}

export interface Performed {
  actor: Actor;
  result: OperationResult;
  /** A line the result has no place for (what quoted names stood for). */
  unsaid?: string;
}

/**
 * One planned run: the stored command text read again as if typed at the run's instant (so "last 8
 * hours" is the 8 hours before it), in the schedule's zone, by its owner; then the one runner (policy,
 * identity as the owner, audit, the service call, following the flow). Nothing here differs by operation.
 */
export async function performScheduled(
  deps: PerformDeps,
  s: Schedule,
  plannedAt: number,
): Promise<Performed> {
  const userName = await deps.displayName?.(s.ownerId).catch(() => undefined);
  const actor: Actor = {
    userId: s.ownerId,
    ...(userName ? { userName } : {}),
    ...(s.teamId ? { teamId: s.teamId } : {}),
    channelId: s.channelId,
    asked: `/tsai ${s.command}`,
    timeZone: s.timeZone,
    via: 'command',
  };
  const read = await interpretCommand(deps.store, {
    text: s.command,
    ...(s.teamId ? { teamId: s.teamId } : {}),
    channelId: s.channelId,
    now: () => new Date(plannedAt),
    person: async () => ({ ...(userName ? { userName } : {}), timeZone: s.timeZone }),
  });
  if (read.kind === 'refused') return { actor, result: read.failure };
  if (read.kind !== 'run')
    return {
      actor,
      result: {
        ok: false,
        message:
          'This command no longer runs on its own (it now needs a form or is not an operation); nothing was sent.',
      },
    };
  let op: Operation = read.operation;
  if (op.kind === 'live-request') {
    // Approved once as a schedule: each run is the approved live start or stop itself, as an approved
    // request's flow is, so it needs no approval of its own.
    if (!op.modelId || s.status !== 'active' || !s.statusBy)
      return {
        actor,
        result: {
          ok: false,
          message: 'This live start or stop was not approved as a schedule; nothing was sent.',
        },
      };
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
  return { actor, result, ...(unsaid ? { unsaid } : {}) };
}

/** What the store keeps of a run's result. */
export function reportOf(result: OperationResult): RunReport {
  if (result.ok) {
    const flowId = result.kind === 'service' ? result.flow?.id : undefined;
    return { outcome: 'ok', ...(flowId ? { flowId } : {}) };
  }
  if (result.connect) return { outcome: 'refused', detail: result.message, reconnect: true };
  if (result.outcomeUnknown) return { outcome: 'unknown', detail: result.message };
  // Refused by the bot before anything was sent (policy, identity, bad input), or by the service.
  return {
    outcome: result.status === undefined && result.refusal ? 'refused' : 'failed',
    detail: result.message,
  };
}

import type { StoredChannelDefaults } from './channel-defaults.js';
import type { OperationResult } from './operations/operation.js';
import type { OpFailure, OpOutcome, OpSuccess } from './outcome.js';
import type { ApprovalRequest, AuditEntry, TrackedFlow } from './records.js';

/**
 * Where an outcome is shown. A change is told in the channel, so the team sees who did what; lookups,
 * lists and errors only to the person who asked. What cannot go where it belongs still reaches that person.
 */
export type Audience =
  /** Only the person who asked. */
  | 'person'
  /** The channel asked in; the person when no place in the channel takes it. */
  | 'channel'
  /** The channel, as a message whose status line is updated in place while the flow is followed. */
  | 'followed-flow'
  /** Where approval requests are posted, as the approvals part decides. */
  | 'approvers';

/** What is shown, as data: a surface renders each kind its own way. */
export type Shown =
  | { kind: 'error'; failure: OpFailure }
  | { kind: 'result'; outcome: OpSuccess }
  | { kind: 'tracked-flows'; flows: TrackedFlow[] }
  | { kind: 'flow-status'; flowId: string; tracked: TrackedFlow | null; now: OpOutcome }
  | { kind: 'approval-request'; request: ApprovalRequest; modelFrom: 'argument' | 'assessment' }
  | { kind: 'channel-defaults'; defaults: StoredChannelDefaults | null }
  | { kind: 'channel-defaults-set'; defaults: StoredChannelDefaults | null }
  | { kind: 'channel-defaults-cleared' }
  | { kind: 'nothing-to-clear' }
  /** `everyone`: the asker sees every request of their team; else only theirs and those they may decide. */
  | { kind: 'pending-approvals'; requests: ApprovalRequest[]; everyone: boolean }
  | { kind: 'audit-trail'; entries: AuditEntry[] };

export interface Presentation {
  to: Audience;
  shown: Shown;
  /** Requests found expired on the way, whose messages are to be shown anew. */
  redraw?: ApprovalRequest[];
}

/**
 * The one place that decides how a command's outcome is presented: to whom, and what. `followsFlows`: a
 * created flow is followed, so it is announced where its status can be updated.
 */
export function present(result: OperationResult, o: { followsFlows: boolean }): Presentation | undefined {
  if (!result.ok) return { to: 'person', shown: { kind: 'error', failure: result } };
  switch (result.kind) {
    case 'service': {
      const shown = { kind: 'result', outcome: result } as const;
      if (result.visibility !== 'channel') return { to: 'person', shown };
      return { to: result.flow && o.followsFlows ? 'followed-flow' : 'channel', shown };
    }
    case 'tracked-flows':
      return { to: 'person', shown: { kind: 'tracked-flows', flows: result.flows } };
    case 'flow-status': {
      const { flowId, tracked, now } = result;
      return { to: 'person', shown: { kind: 'flow-status', flowId, tracked, now } };
    }
    case 'approval-filed': {
      const { request, modelFrom } = result;
      return { to: 'approvers', shown: { kind: 'approval-request', request, modelFrom } };
    }
    case 'channel-defaults':
      if (result.change === 'show')
        return { to: 'person', shown: { kind: 'channel-defaults', defaults: result.defaults } };
      if (result.change === 'clear')
        return result.cleared
          ? { to: 'channel', shown: { kind: 'channel-defaults-cleared' } }
          : { to: 'person', shown: { kind: 'nothing-to-clear' } };
      return { to: 'channel', shown: { kind: 'channel-defaults-set', defaults: result.defaults } };
    case 'pending-approvals':
      return {
        to: 'person',
        shown: { kind: 'pending-approvals', requests: result.requests, everyone: result.everyone },
        redraw: result.expired,
      };
    case 'audit-trail':
      return { to: 'person', shown: { kind: 'audit-trail', entries: result.entries } };
    case 'approval-decision':
      // A decision is shown on its request's card, by the approvals part.
      return undefined;
  }
}

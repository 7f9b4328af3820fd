import type {
  ApprovalRequest,
  AuditEntry,
  ChannelDefaults,
  FlowOrigin,
  TrackedFlow,
} from '../../store/index.js';
import type { DecisionOutcome } from '../approvals/rules.js';
import type { OnExecuting } from '../approvals/workflow.js';
import type { StoredChannelDefaults } from '../channel-defaults.js';
import type { SurfaceId } from '../gate/surfaces.js';
import { type CommandSpec, specById } from '../grammar/commands.js';
import type { OpFailure, OpOutcome, OpSuccess } from '../outcome.js';
import type { DecidedSchedule, ScheduleDecision } from '../schedules/approval.js';
import { entryOf, entryOfOperation, type ServiceOperation } from './registry/index.js';
import type { LiveModel, LiveRequest } from './registry/live-model.js';

/** The service requests a person's command or form resolves to (an approved live flow aside). */
export type OpRequest = Exclude<ServiceOperation, { kind: 'live-model' }>;

/**
 * Everything the bot can be asked to do, fully resolved: the service requests, and the bot's own
 * operations on its store (approval requests, channel defaults, the lists). The operation runner
 * (`run.ts`) authorises, executes and audits each of them in one place, whichever surface asked.
 */
export type Operation =
  | OpRequest
  /** File a request to start or stop a live model; it waits for an approver. */
  | LiveRequest
  /** Create the STARTLIVEMODEL/STOPLIVEMODEL flow of a request an approver has approved. */
  | LiveModel
  /** Approve, reject or retry a live start/stop request (`onExecuting`: once an approval has won). */
  | {
      kind: 'approval-decision';
      decision: 'approve' | 'reject' | 'retry';
      requestId: string;
      reason?: string;
      /** Where the decider saw the request; absent: its approvals channel. */
      channelId?: string;
      onExecuting?: OnExecuting;
    }
  /** Approve, reject or revoke the one approval of a schedule of live starts or stops. */
  | { kind: 'schedule-decision'; decision: ScheduleDecision; scheduleId: string; channelId?: string }
  | { kind: 'defaults-set'; values: ChannelDefaults }
  | { kind: 'defaults-clear' }
  | { kind: 'defaults-show' }
  | { kind: 'approvals-list' }
  | { kind: 'audit-list'; limit?: number }
  /** The latest flows started from the channel, as followed. */
  | { kind: 'flows-list'; limit?: number };

export type OperationKind = Operation['kind'];

/** Who asked, where, and how they asked: what every operation is authorised and audited against. */
export interface Actor {
  userId: string;
  /** The name they go by (never their ID), for the names of what they create; absent: unknown. */
  userName?: string;
  teamId?: string;
  channelId: string;
  /** The thread within that channel that asked (a mention in a thread): where what comes of it is told. */
  threadTs?: string;
  /** What was asked as the person would recognise it: the command as typed, or a form's summary. */
  asked: string;
  /** The person's IANA zone: time ranges in the outcome are shown in it. */
  timeZone: string;
  /** Where what it creates came from: what can reopen a flow, and how its end is told. */
  via: FlowOrigin;
  /** The surface of the gate that asked (core/gate/surfaces.ts): the name the audit records it under. */
  surface: SurfaceId;
  /** A Workflow Builder step asked: which step of which workflow run (for the audit line). */
  workflow?: { step: string; workflowExecutionId?: string; functionExecutionId: string };
}

export type OperationResult =
  | OpFailure
  | OpSuccess
  | { ok: true; kind: 'approval-filed'; request: ApprovalRequest; modelFrom: 'argument' | 'assessment' }
  | { ok: true; kind: 'approval-decision'; outcome: DecisionOutcome }
  | { ok: true; kind: 'schedule-decision'; decided: DecidedSchedule }
  | {
      ok: true;
      kind: 'channel-defaults';
      change: 'set' | 'clear' | 'show';
      defaults: StoredChannelDefaults | null;
      /** For `clear`: whether there was anything to clear. */
      cleared?: boolean;
    }
  /** `expired`: requests this listing found past their expiry and expired (their messages need updating). */
  | {
      ok: true;
      kind: 'pending-approvals';
      /** What the asker may see (core/read-scope.ts). */
      requests: ApprovalRequest[];
      expired: ApprovalRequest[];
      /** The asker is one of the bot's approvers, who see every request of their team. */
      everyone: boolean;
    }
  | { ok: true; kind: 'audit-trail'; entries: AuditEntry[] }
  | { ok: true; kind: 'tracked-flows'; flows: TrackedFlow[] }
  /** `/tsai flow <id>`: what following it found, and the service's answer now. */
  | { ok: true; kind: 'flow-status'; flowId: string; tracked: TrackedFlow | null; now: OpOutcome };

/** The command each of the bot's own operations belongs to; a service operation's is its registry entry's. */
const BOT_COMMAND_OF: Record<Exclude<OperationKind, ServiceOperation['kind']>, string> = {
  'live-request': 'live',
  'approval-decision': 'approvals',
  'schedule-decision': 'schedule',
  'defaults-set': 'use',
  'defaults-clear': 'use',
  'defaults-show': 'use',
  'approvals-list': 'approvals',
  'audit-list': 'audit',
  'flows-list': 'flows',
};

/** The command table entry an operation belongs to: the one source of its name and of `mutating`. */
export function specOf(op: Operation): CommandSpec {
  if (reachesService(op)) return specById(entryOf(op).command.id);
  return specById(BOT_COMMAND_OF[op.kind]);
}

/** The service flow type an operation creates, if it creates one. */
export function flowTypeOf(op: Operation): string | undefined {
  return entryOfOperation(op.kind)?.wire.flowType?.of(op);
}

/**
 * The audit log's name for a changing operation that reaches the service (`flow.ANOMALYLEARN`,
 * `workspace.create`), or undefined for lookups. Operations on the bot's own store (approval requests,
 * channel defaults) write their own, more specific entries.
 */
export function auditNameOf(op: Operation): string | undefined {
  if (!reachesService(op) || !specOf(op).mutating) return undefined;
  const flowType = flowTypeOf(op);
  return flowType ? `flow.${flowType}` : specOf(op).id.replace(' ', '.');
}

export function reachesService(op: Operation): op is ServiceOperation {
  return entryOfOperation(op.kind) !== undefined;
}

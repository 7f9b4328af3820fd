import type { CommandSpec } from '../grammar/commands.js';
import { type Operation, type OperationKind, reachesService, specOf } from '../operations/operation.js';
import type { ServiceOperation } from '../operations/registry/index.js';

/**
 * Which access policy an operation passes, declared once for every operation the bot has. A service
 * operation passes its command's (its registry entry says whether it changes something, so needs an
 * operator); so does each of the bot's own, but for the decisions: who may decide is the approvers' rule,
 * and what an approval creates (the live flow) passes the gate itself, on behalf of whoever asked for it.
 * The map is total, so a new operation of the bot's own cannot be added without saying which it passes.
 */
type BotOperationKind = Exclude<OperationKind, ServiceOperation['kind']>;

const POLICY: Record<BotOperationKind, 'command' | 'approvers'> = {
  'live-request': 'command',
  'approval-decision': 'approvers',
  'schedule-decision': 'approvers',
  'defaults-set': 'command',
  'defaults-clear': 'command',
  'defaults-show': 'command',
  'approvals-list': 'command',
  'audit-list': 'command',
  'flows-list': 'command',
};

/** The command whose access policy `op` passes; undefined for a decision (the approvers' rule decides). */
export function policyOf(op: Operation): CommandSpec | undefined {
  if (reachesService(op)) return specOf(op);
  return POLICY[op.kind] === 'command' ? specOf(op) : undefined;
}

/** Whether `op` acts with a service identity: it calls the service (a request by assessment looks it up). */
export function needsIdentity(op: Operation): boolean {
  return reachesService(op) || (op.kind === 'live-request' && op.assessmentId !== undefined);
}

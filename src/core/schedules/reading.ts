import type { Schedule, Store } from '../../store/index.js';
import { interpretCommand, type Person } from '../interpret.js';
import type { Actor, Operation } from '../operations/operation.js';
import { reachesService } from '../operations/operation.js';
import type { Operations } from '../operations/run.js';
import type { OpFailure } from '../outcome.js';
import { refusal } from './read.js';

/** Operations on the bot's own state: nothing a schedule could usefully repeat. */
const NOT_SCHEDULABLE = new Set<Operation['kind']>([
  'defaults-set',
  'defaults-clear',
  'defaults-show',
  'approvals-list',
  'audit-list',
  'approval-decision',
  'schedule-decision',
  'flows-list',
]);

/** A schedule's command, read now as its (would-be) owner would type it, and the gate's word on it. */
export type ReadForOwner =
  | { ok: true; operation: Operation; spec: { id: string; examples: readonly string[] }; actor: Actor }
  | OpFailure;

/**
 * Reads a schedule's command now, in its channel, as `owner` would type it (the one reading of a command,
 * `interpretCommand`), and asks the gate whether they may run it there now (`Operations.check`): what a
 * schedule's creation, its resumption and its take-over all ask. A command that would be refused, open a
 * form or that only reads the bot's own state is refused with the reason; `example` corrects a command.
 */
export async function readForOwner(
  deps: { store: Store; operations: Operations; now: () => Date },
  o: {
    owner: { userId: string; teamId?: string; person: Person };
    channelId: string;
    command: string;
    asked: string;
    example: (command: string | undefined) => string;
    /** What came of it when refused, as a sentence: "Nothing was scheduled." */
    nothing: string;
  },
): Promise<ReadForOwner> {
  const { owner } = o;
  const read = await interpretCommand(deps.store, {
    text: o.command,
    ...(owner.teamId ? { teamId: owner.teamId } : {}),
    channelId: o.channelId,
    now: deps.now,
    person: async () => owner.person,
  });
  if (read.kind === 'refused')
    return {
      ...read.failure,
      message: `The command would be refused: ${read.failure.message} ${o.nothing}`,
      example: o.example(read.failure.example),
    };
  if (read.kind === 'form')
    return refusal(
      `A schedule runs with nobody there to fill in a form, so the command must be complete: \`${read.spec.id}\` is missing arguments. ${o.nothing}`,
      o.example(read.spec.examples[0]),
    );
  if (
    read.kind !== 'run' ||
    NOT_SCHEDULABLE.has(read.operation.kind) ||
    (!reachesService(read.operation) && read.operation.kind !== 'live-request')
  )
    return refusal(
      'Only commands that ask the service for something (learn, relearn, score, eval, live start or stop, lookups) can be scheduled. For a regular summary of this channel, use `/tsai digest "every weekday at 07:00"`.',
    );
  const actor: Actor = {
    userId: owner.userId,
    ...(owner.teamId ? { teamId: owner.teamId } : {}),
    channelId: o.channelId,
    asked: o.asked,
    timeZone: owner.person.timeZone,
    via: 'command',
    // Asked as the schedule will run it: as its owner, at its runs.
    surface: 'schedule',
  };
  const refused = await deps.operations.check(actor, read.operation);
  if (refused) return { ...refused, message: `${refused.message} ${o.nothing}` };
  // A live start's flow acts with its owner's identity at every run, though filing needs none.
  if (read.operation.kind === 'live-request') {
    const identity = await deps.operations.identityOf(owner.teamId).forPerson({
      teamId: owner.teamId ?? '',
      userId: owner.userId,
    });
    if (!identity.ok) return identity.refusal;
  }
  return { ok: true, operation: read.operation, spec: read.spec, actor };
}

/**
 * The person a kept schedule's owner is, for reading its command again (their zone is the schedule's; their
 * locale, when known, how a range typed in their language is read).
 */
export function ownerOf(
  s: Schedule,
  userName?: string,
  locale?: string,
): { userId: string; teamId?: string; person: Person } {
  return {
    userId: s.ownerId,
    ...(s.teamId ? { teamId: s.teamId } : {}),
    person: { timeZone: s.timeZone, ...(userName ? { userName } : {}), ...(locale ? { locale } : {}) },
  };
}

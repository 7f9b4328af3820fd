import type { NewSchedule, Schedule, Store } from '../../store/index.js';
import { traceParentNow } from '../../tracing/trace.js';
import { liveRequestRefusal } from '../approvals/live-prechecks.js';
import { maskCommandText, maskValues } from '../gate/mask.js';
import { EXAMPLE_IDS } from '../ids.js';
import type { Person } from '../interpret.js';
import type { Operations } from '../operations/run.js';
import type { OpFailure } from '../outcome.js';
import { SCHEDULE_EXAMPLE } from './commands.js';
import { type PlannedRun, previewRuns } from './preview.js';
import { refusal, type SchedulingRequest } from './read.js';
import { readForOwner } from './reading.js';
import { nextRunAfter, type Rule, shortestGap } from './rule.js';
import { readWhen, type WhenOutcome } from './when.js';

export { readScheduling, type ScheduleChange, type SchedulingRequest } from './read.js';

/** The limits that protect the service (TSAI_SCHEDULES_PER_PERSON, …_PER_CHANNEL, TSAI_SCHEDULE_MIN_INTERVAL). */
export interface ScheduleLimits {
  perPerson: number;
  perChannel: number;
  minIntervalMs: number;
}

export interface SchedulingDeps {
  store: Store;
  /** The one runner: its gate, the identities and who decides a live start or stop. */
  operations: Operations;
  now: () => Date;
  limits: ScheduleLimits;
}

/** Who asks, and where: the schedule's owner-to-be, or someone changing one. */
export interface Asker {
  userId: string;
  teamId?: string;
  channelId: string;
  person: Person;
}

export type Created =
  | {
      ok: true;
      schedule: Schedule;
      rule: Rule;
      words: string;
      runs: PlannedRun[];
      needsApproval: boolean;
      /** A token-like value in what was typed was masked before it was kept. */
      masked: boolean;
    }
  | OpFailure;

/** The statuses a schedule counts against the limits in: it runs, or may run again. */
export const LIVING = ['active', 'paused', 'awaiting-approval'] as const;

/**
 * Makes a schedule, after reading its "when" and its command exactly as a typed command is read now: a
 * command that would be refused, or open a form, is refused at once with the reason and an example; so is
 * someone the gate would refuse, and a schedule past the limits. Whatever token-like value was typed is
 * masked before anything is kept. A live start or stop waits for one approval of the schedule itself, by
 * the approvers who would decide a request of its model.
 */
export async function createSchedule(
  deps: SchedulingDeps,
  asker: Asker,
  asked: Extract<SchedulingRequest, { kind: 'create' }>,
): Promise<Created> {
  const command = maskCommandText(asked.commandText);
  const texts = maskValues({ whenText: asked.whenText, name: asked.name });
  const req = { ...asked, ...texts.value, commandText: command.text };
  const masked = command.masked || texts.masked;
  const now = deps.now().getTime();
  const when = readWhen(req.whenText, { zone: asker.person.timeZone, now });
  if (!when.ok) return refusal(when.message, when.example);
  const example = (cmd: string | undefined) =>
    cmd
      ? `/tsai schedule "${req.whenText.replace(/"/g, '')}" ${cmd.replace(/^\/tsai\s+/, '')}`
      : SCHEDULE_EXAMPLE;
  const often = tooOften(deps.limits, when, req.commandText, now);
  if (often) return often;
  const read = await readForOwner(deps, {
    owner: asker,
    channelId: asker.channelId,
    command: req.commandText,
    asked: `/tsai schedule "${req.whenText}" ${req.commandText}`,
    example,
    nothing: 'Nothing was scheduled.',
  });
  if (!read.ok) return read;
  const op = read.operation;
  let approvers: Pick<NewSchedule, 'approversWorkspace' | 'approversStrictest' | 'modelDoubt'> = {};
  if (op.kind === 'live-request') {
    if (!op.modelId)
      return refusal(
        'A scheduled live start or stop names its model: the model an assessment points to may change between runs. Nothing was scheduled.',
        example(`live ${op.action} ${EXAMPLE_IDS.model}`),
      );
    const rule = deps.operations.approvers;
    if (!rule.anyone)
      return refusal(
        'A live start or stop runs on a schedule only once an approver approves the schedule, and this bot has no approvers (TSAI_APPROVERS), so nothing was scheduled. Ask whoever runs the bot to name them, or start it yourself with `/tsai live start`, which files a request.',
        `/tsai live start ${EXAMPLE_IDS.model} reason="new baseline"`,
      );
    const missing = await liveRequestRefusal(deps, {
      action: op.action,
      modelId: op.modelId,
      ...(asker.teamId ? { teamId: asker.teamId } : {}),
      state: false,
      nothing: 'nothing was scheduled',
    });
    if (missing) return { ok: false, message: missing };
    const route = await rule.route(op.modelId, asker.teamId);
    const nobody = rule.nobodyCouldApprove(op.action, op.modelId, route, 'schedule');
    if (nobody) return { ok: false, message: nobody };
    approvers = route;
  }
  return keep(
    deps,
    asker,
    when,
    {
      name: req.name ?? `${read.spec.id} ${when.words}`.slice(0, 120),
      kind: 'command',
      command: req.commandText,
      whenText: req.whenText,
      ...approvers,
    },
    {
      needsApproval: op.kind === 'live-request',
      masked,
      detail: { when: req.whenText, command: req.commandText },
    },
    now,
  );
}

/** Makes a digest of this channel, posted on its rule. */
export async function createDigest(deps: SchedulingDeps, asker: Asker, asked: string): Promise<Created> {
  const { value: whenText, masked } = maskValues(asked);
  const now = deps.now().getTime();
  const when = readWhen(whenText, { zone: asker.person.timeZone, now });
  if (!when.ok) return refusal(when.message, '/tsai digest "every weekday at 07:00"');
  const often = tooOften(deps.limits, when, undefined, now);
  if (often) return often;
  return keep(
    deps,
    asker,
    when,
    { name: `digest ${when.words}`, kind: 'digest', command: '', whenText },
    { needsApproval: false, masked, detail: { when: whenText, digest: true } },
    now,
  );
}

/** The phrases of the steps people use, the shortest first, for "at most every …" and its example. */
const STEPS: readonly [number, string][] = [
  [60_000, 'every minute'],
  ...[2, 5, 10, 15, 20, 30].map((m): [number, string] => [m * 60_000, `every ${m} minutes`]),
  [3_600_000, 'every hour'],
  ...[2, 3, 4, 6, 8, 12].map((h): [number, string] => [h * 3_600_000, `every ${h} hours`]),
  [86_400_000, 'every day at 06:00'],
];

/** How often a step is, in words ("15 minutes", "2 hours"). */
function spanWords(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return minutes === 1 ? 'minute' : `${minutes} minutes`;
  const hours = Math.round((minutes / 60) * 10) / 10;
  return hours === 1 ? 'hour' : `${hours} hours`;
}

/** A rule that runs more often than the shortest interval allowed: refused, with one that is allowed. */
function tooOften(
  limits: ScheduleLimits,
  when: Extract<WhenOutcome, { ok: true }>,
  command: string | undefined,
  now: number,
): OpFailure | undefined {
  const gap = shortestGap(when.rule, now);
  if (gap === undefined || gap >= limits.minIntervalMs) return undefined;
  const allowed = STEPS.find(([ms]) => ms >= limits.minIntervalMs)?.[1] ?? 'every day at 06:00';
  return refusal(
    `"${when.words}" would run every ${spanWords(gap)}, and a schedule here runs at most every ${spanWords(limits.minIntervalMs)} (TSAI_SCHEDULE_MIN_INTERVAL): each run calls the service with nobody waiting for it. Nothing was scheduled.`,
    command ? `/tsai schedule "${allowed}" ${command}` : `/tsai digest "${allowed}"`,
  );
}

/** Past the person's limit: refused, saying the limit and what to do. */
export async function overPersonLimit(
  deps: Pick<SchedulingDeps, 'store' | 'limits'>,
  asker: Pick<Asker, 'userId' | 'teamId'>,
  nothing = 'nothing was scheduled',
): Promise<OpFailure | undefined> {
  const team = asker.teamId ? { teamId: asker.teamId } : {};
  const mine = await deps.store.countSchedules({ ...team, ownerId: asker.userId, statuses: [...LIVING] });
  if (mine < deps.limits.perPerson) return undefined;
  return {
    ok: false,
    message: `You have ${mine} schedules, the most one person may have (TSAI_SCHEDULES_PER_PERSON), so ${nothing}. Delete one you no longer need with \`/tsai schedule delete <number>\` in its channel (\`/tsai schedules\` there lists them; your Home tab lists them all), or ask whoever runs the bot to raise the limit.`,
    example: '/tsai schedules',
  };
}

/** Past the person's or the channel's limit: refused, saying the limit and what to do. */
async function overLimits(deps: SchedulingDeps, asker: Asker): Promise<OpFailure | undefined> {
  const team = asker.teamId ? { teamId: asker.teamId } : {};
  const statuses = [...LIVING];
  const mine = await overPersonLimit(deps, asker);
  if (mine) return mine;
  const here = await deps.store.countSchedules({ ...team, channelId: asker.channelId, statuses });
  if (here >= deps.limits.perChannel)
    return {
      ok: false,
      message: `This channel has ${here} schedules, the most one channel may have (TSAI_SCHEDULES_PER_CHANNEL), so nothing was scheduled. Their owners or an approver can delete one with \`/tsai schedule delete <number>\` (\`/tsai schedules\` lists them), or ask whoever runs the bot to raise the limit.`,
      example: '/tsai schedules',
    };
  return undefined;
}

/**
 * Stores a schedule read and allowed, within the person's and the channel's limits, audits it, and
 * answers with its next runs.
 */
async function keep(
  deps: SchedulingDeps,
  asker: Asker,
  when: Extract<WhenOutcome, { ok: true }>,
  s: Pick<
    NewSchedule,
    'name' | 'kind' | 'command' | 'whenText' | 'approversWorkspace' | 'approversStrictest' | 'modelDoubt'
  >,
  o: { needsApproval: boolean; masked: boolean; detail: Record<string, unknown> },
  now: number,
): Promise<Created> {
  const full = await overLimits(deps, asker);
  if (full) return full;
  const schedule = await deps.store.createSchedule({
    ...(asker.teamId ? { teamId: asker.teamId } : {}),
    channelId: asker.channelId,
    ownerId: asker.userId,
    ...s,
    rule: { ...when.rule },
    timeZone: when.rule.zone,
    status: o.needsApproval ? 'awaiting-approval' : 'active',
    createdAt: now,
    nextRunAt: o.needsApproval ? null : nextRunAfter(when.rule, now),
    // Its runs are traces of their own, linked to the request that made it.
    ...traceParentNow(),
  });
  await auditSchedule(deps, asker, 'schedule.create', schedule, o.detail);
  return {
    ok: true,
    schedule,
    rule: when.rule,
    words: when.words,
    runs: previewRuns(when.rule, now, 3),
    needsApproval: o.needsApproval,
    masked: o.masked,
  };
}

/** The audit line of a change to a schedule (its texts are already masked). */
export async function auditSchedule(
  deps: Pick<SchedulingDeps, 'operations' | 'now'>,
  asker: Pick<Asker, 'userId' | 'teamId' | 'channelId'>,
  operation: string,
  s: Schedule,
  params: Record<string, unknown>,
): Promise<void> {
  await deps.operations.auditLog.write([
    {
      at: deps.now().getTime(),
      userId: asker.userId,
      ...(asker.teamId ? { teamId: asker.teamId } : {}),
      channelId: asker.channelId,
      operation,
      params: { schedule: s.id, name: s.name, ...params },
      outcome: 'ok',
    },
  ]);
}

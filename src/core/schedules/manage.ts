import type { NewSchedule, Schedule, ScheduleStatus, Store } from '../../store/index.js';
import { AuditLog } from '../audit.js';
import { COMMANDS, specById } from '../grammar/commands.js';
import { EXAMPLE_IDS } from '../ids.js';
import { interpretCommand, type Person } from '../interpret.js';
import type { Actor, Operation } from '../operations/operation.js';
import { reachesService } from '../operations/operation.js';
import type { Operations } from '../operations/run.js';
import type { OpFailure } from '../outcome.js';
import { SCHEDULE_EXAMPLE } from './commands.js';
import { type PlannedRun, previewRuns } from './preview.js';
import { nextRunAfter, type Rule } from './rule.js';
import { STATUS_WORDS } from './status.js';
import { readWhen, type WhenOutcome } from './when.js';

/** What `/tsai schedule …`, `/tsai schedules` and `/tsai digest …` ask for. */
export type SchedulingRequest =
  | { kind: 'create'; whenText: string; name?: string; commandText: string }
  | { kind: 'digest'; whenText: string }
  | { kind: 'digest-now' }
  | { kind: 'change'; action: ScheduleChange; ref: string }
  | { kind: 'list' };

export type ScheduleChange = 'pause' | 'resume' | 'delete';

const QUOTED = /^["“”'‘’]([^"“”'‘’]*)["“”'‘’]\s*/;

const refusal = (message: string, example = SCHEDULE_EXAMPLE): OpFailure => ({
  ok: false,
  message,
  example,
  usage: specById('schedule').usage,
});

/** The first word of every command: where an unquoted "when" ends. */
const commandWords = () => new Set(COMMANDS.map((c) => c.words[0]!));

/** Reads the text after `schedule`, `schedules` or `digest`. */
export function readScheduling(id: string, text: string): SchedulingRequest | OpFailure {
  const t = text.trim();
  if (id === 'schedules') {
    if (t)
      return refusal(
        '`/tsai schedules` takes nothing after it: it lists this channel’s schedules.',
        '/tsai schedules',
      );
    return { kind: 'list' };
  }
  if (id === 'digest') {
    if (/^now$/i.test(t)) return { kind: 'digest-now' };
    const when = QUOTED.exec(t)?.[1] ?? t;
    if (!when)
      return refusal('Say when the digest is posted, or `now`.', '/tsai digest "every weekday at 07:00"');
    return { kind: 'digest', whenText: when };
  }
  const change = /^(pause|resume|delete|remove|stop)\s+(.+)$/i.exec(t);
  if (change) {
    const word = change[1]!.toLowerCase();
    const action: ScheduleChange =
      word === 'remove' ? 'delete' : word === 'stop' ? 'pause' : (word as ScheduleChange);
    return { kind: 'change', action, ref: change[2]!.trim().replace(/^["“”']|["“”']$/g, '') };
  }
  if (!t) return refusal('Say when it runs and what: the "when" in quotes, then the command.');
  let whenText: string;
  let rest: string;
  const quoted = QUOTED.exec(t);
  if (quoted) {
    whenText = quoted[1]!;
    rest = t.slice(quoted[0].length);
  } else {
    // Without quotes, the "when" runs up to the first word that starts a command.
    const words = t.split(/\s+/);
    const at = words.findIndex((w, i) => i > 0 && commandWords().has(w.toLowerCase()));
    if (at < 0) return refusal('Put the "when" in quotes, then the command to run.');
    whenText = words.slice(0, at).join(' ');
    rest = t.slice(t.indexOf(words[at]!, whenText.length));
  }
  let name: string | undefined;
  const named = /^name=["“”']([^"“”']+)["“”']\s*|^name=(\S+)\s*/.exec(rest);
  if (named) {
    name = (named[1] ?? named[2])!.trim().slice(0, 80);
    rest = rest.slice(named[0].length);
  }
  const commandText = rest.trim().replace(/^\/tsai\s+/, '');
  if (!commandText) return refusal(`Say which command runs "${whenText}", after the quotes.`);
  return { kind: 'create', whenText, ...(name ? { name } : {}), commandText };
}

export interface SchedulingDeps {
  store: Store;
  operations: Operations;
  now: () => Date;
  isApprover(userId: string): Promise<boolean>;
  /** Whether anyone can approve a schedule (TSAI_APPROVERS is set). */
  hasApprovers: boolean;
}

/** Who asks, and where: the schedule's owner-to-be, or someone changing one. */
export interface Asker {
  userId: string;
  teamId?: string;
  channelId: string;
  person: Person;
}

export type Created =
  | { ok: true; schedule: Schedule; rule: Rule; words: string; runs: PlannedRun[]; needsApproval: boolean }
  | OpFailure;

/** Operations on the bot's own state: nothing a schedule could usefully repeat. */
const NOT_SCHEDULABLE = new Set<Operation['kind']>([
  'defaults-set',
  'defaults-clear',
  'defaults-show',
  'approvals-list',
  'audit-list',
  'approval-decision',
  'flows-list',
]);

/**
 * Makes a schedule, after reading its "when" and its command exactly as a typed command is read now: a
 * command that would be refused, or open a form, is refused at once with the reason and an example; so is
 * someone who may not run it. A live start or stop waits for one approval of the schedule itself.
 */
export async function createSchedule(
  deps: SchedulingDeps,
  asker: Asker,
  req: Extract<SchedulingRequest, { kind: 'create' }>,
): Promise<Created> {
  const now = deps.now().getTime();
  const when = readWhen(req.whenText, { zone: asker.person.timeZone, now });
  if (!when.ok) return refusal(when.message, when.example);
  const example = (cmd: string | undefined) =>
    cmd
      ? `/tsai schedule "${req.whenText.replace(/"/g, '')}" ${cmd.replace(/^\/tsai\s+/, '')}`
      : SCHEDULE_EXAMPLE;
  const read = await interpretCommand(deps.store, {
    text: req.commandText,
    ...(asker.teamId ? { teamId: asker.teamId } : {}),
    channelId: asker.channelId,
    now: deps.now,
    person: async () => asker.person,
  });
  if (read.kind === 'refused')
    return {
      ...read.failure,
      message: `The command would be refused, so nothing was scheduled: ${read.failure.message}`,
      example: example(read.failure.example),
    };
  if (read.kind === 'form')
    return refusal(
      `A schedule runs with nobody there to fill in a form, so the command must be complete: \`${read.spec.id}\` is missing arguments. Nothing was scheduled.`,
      example(read.spec.examples[0]),
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
    userId: asker.userId,
    ...(asker.teamId ? { teamId: asker.teamId } : {}),
    channelId: asker.channelId,
    asked: `/tsai schedule "${req.whenText}" ${req.commandText}`,
    timeZone: when.rule.zone,
    via: 'command',
  };
  const refused = await deps.operations.authorize(actor, read.spec);
  if (refused) return { ...refused, message: `${refused.message} Nothing was scheduled.` };
  const identity = await deps.operations.identity.forPerson({
    teamId: asker.teamId ?? '',
    userId: asker.userId,
  });
  if (!identity.ok) return identity.refusal;

  const needsApproval = read.operation.kind === 'live-request';
  if (needsApproval && !deps.hasApprovers)
    return refusal(
      'A live start or stop runs on a schedule only once an approver approves the schedule, and this bot has no approvers (TSAI_APPROVERS), so nothing was scheduled. Ask whoever runs the bot to name them, or start it yourself with `/tsai live start`, which files a request.',
      `/tsai live start ${EXAMPLE_IDS.model} reason="new baseline"`,
    );
  if (read.operation.kind === 'live-request' && !read.operation.modelId)
    return refusal(
      'A scheduled live start or stop names its model: the model an assessment points to may change between runs. Nothing was scheduled.',
      example(`live ${read.operation.action} ${EXAMPLE_IDS.model}`),
    );
  return keep(
    deps,
    asker,
    when,
    {
      name: req.name ?? `${read.spec.id} ${when.words}`.slice(0, 120),
      kind: 'command',
      command: req.commandText,
      whenText: req.whenText,
      needsApproval,
    },
    { when: req.whenText, command: req.commandText },
    now,
  );
}

/** Makes a digest of this channel, posted on its rule. */
export async function createDigest(deps: SchedulingDeps, asker: Asker, whenText: string): Promise<Created> {
  const now = deps.now().getTime();
  const when = readWhen(whenText, { zone: asker.person.timeZone, now });
  if (!when.ok) return refusal(when.message, '/tsai digest "every weekday at 07:00"');
  return keep(
    deps,
    asker,
    when,
    { name: `digest ${when.words}`, kind: 'digest', command: '', whenText, needsApproval: false },
    { when: whenText, digest: true },
    now,
  );
}

/** Stores a schedule read and allowed, audits it, and answers with its next runs. */
async function keep(
  deps: SchedulingDeps,
  asker: Asker,
  when: Extract<WhenOutcome, { ok: true }>,
  s: Pick<NewSchedule, 'name' | 'kind' | 'command' | 'whenText'> & { needsApproval: boolean },
  detail: Record<string, unknown>,
  now: number,
): Promise<Created> {
  const schedule = await deps.store.createSchedule({
    ...(asker.teamId ? { teamId: asker.teamId } : {}),
    channelId: asker.channelId,
    ownerId: asker.userId,
    name: s.name,
    kind: s.kind,
    command: s.command,
    whenText: s.whenText,
    rule: { ...when.rule },
    timeZone: when.rule.zone,
    status: s.needsApproval ? 'awaiting-approval' : 'active',
    createdAt: now,
    nextRunAt: s.needsApproval ? null : nextRunAfter(when.rule, now),
  });
  await audit(deps, asker, 'schedule.create', schedule, detail);
  return {
    ok: true,
    schedule,
    rule: when.rule,
    words: when.words,
    runs: previewRuns(when.rule, now, 3),
    needsApproval: s.needsApproval,
  };
}

export const ruleOf = (s: Schedule): Rule => ({ ...(s.rule as unknown as Rule), zone: s.timeZone });

/** A channel's schedules in the order people number them. */
export function channelSchedules(store: Store, channelId: string, teamId?: string): Promise<Schedule[]> {
  return store.listSchedules({ channelId, ...(teamId ? { teamId } : {}) });
}

/** The schedule a person means: its number in `/tsai schedules`, its name, or its ID. */
export function findSchedule(list: readonly Schedule[], ref: string): Schedule | undefined {
  const r = ref.trim().replace(/^#/, '');
  if (/^\d{1,3}$/.test(r)) return list[Number(r) - 1];
  const lower = r.toLowerCase();
  return list.find((s) => s.id === lower) ?? list.find((s) => s.name.toLowerCase() === lower);
}

export type Changed = { ok: true; schedule: Schedule; action: ScheduleChange } | OpFailure;

/**
 * Pause, resume or delete: the owner and approvers may; everyone else reads. The channel policy is not
 * asked: a channel taken off TSAI_ALLOWED_CHANNELS must still let its schedules be stopped, and each run
 * goes through the policy anyway (a resumed one there is refused at its instant, and its owner told).
 */
export async function changeSchedule(
  deps: SchedulingDeps,
  asker: Asker,
  req: Extract<SchedulingRequest, { kind: 'change' }>,
): Promise<Changed> {
  const list = await channelSchedules(deps.store, asker.channelId, asker.teamId);
  const s = findSchedule(list, req.ref);
  if (!s)
    return refusal(
      list.length
        ? `This channel has no schedule \`${req.ref}\`: give its number in \`/tsai schedules\` (1 to ${list.length}) or its name.`
        : 'This channel has no schedules.',
      `/tsai schedule ${req.action} 1`,
    );
  if (s.ownerId !== asker.userId && !(await deps.isApprover(asker.userId)))
    return {
      ok: false,
      message: `Only the schedule's owner or an approver can ${req.action} it; you can read it with \`/tsai schedules\`.`,
      refusal: { reason: 'not-approver', askUsers: [s.ownerId], askGroups: [], allowedChannels: [] },
    };
  const at = deps.now().getTime();
  const change = {
    pause: { status: 'paused', from: ['active'], next: null },
    resume: { status: 'active', from: ['paused'], next: nextRunAfter(ruleOf(s), at) },
    delete: { status: 'deleted', from: ['active', 'paused', 'awaiting-approval', 'rejected'], next: null },
  }[req.action] as { status: ScheduleStatus; from: ScheduleStatus[]; next: number | null };
  const done = await deps.store.setScheduleStatus(s.id, {
    status: change.status,
    from: change.from,
    by: asker.userId,
    at,
    nextRunAt: change.next,
    reason: req.action === 'pause' ? 'paused by a person' : null,
  });
  if (!done) {
    const now = (await deps.store.getSchedule(s.id))?.status ?? s.status;
    return {
      ok: false,
      message: `Schedule ${list.indexOf(s) + 1} is ${STATUS_WORDS[now]}, so it cannot be ${PAST[req.action]}.`,
    };
  }
  await audit(deps, asker, `schedule.${req.action}`, done, {});
  return { ok: true, schedule: done, action: req.action };
}

const PAST: Record<ScheduleChange, string> = { pause: 'paused', resume: 'resumed', delete: 'deleted' };

async function audit(
  deps: SchedulingDeps,
  asker: Asker,
  operation: string,
  s: Schedule,
  params: Record<string, unknown>,
): Promise<void> {
  await new AuditLog(deps.store).write([
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

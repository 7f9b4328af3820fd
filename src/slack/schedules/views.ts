import { MASKED_NOTE } from '../../core/gate/mask.js';
import type { Schedule, ScheduleRunOutcome } from '../../core/records.js';
import type { Changed } from '../../core/schedules/change.js';
import { SCHEDULES_PAGE } from '../../core/schedules/commands.js';
import type { SchedulesPage } from '../../core/schedules/find.js';
import type { PlannedRun } from '../../core/schedules/preview.js';
import type { ScheduleEvent } from '../../core/schedules/runner.js';
import { STATUS_WORDS } from '../../core/schedules/status.js';
import { connectActions } from '../views/connect.js';
import type { MessageBody } from '../views/messages.js';
import {
  askWhom,
  code,
  context,
  escapeMrkdwn,
  type KnownBlock,
  LIMITS,
  limitBlocks,
  mention,
  plural,
  section,
  shorten,
  slackTime,
  truncate,
  utcText,
} from '../views/mrkdwn.js';

const when = (ms: number) => slackTime(ms, '{date_short_pretty} at {time}');

/** The next runs, each a Slack date (shown in the reader's own zone), DST days marked. */
export function runLines(runs: readonly PlannedRun[]): string {
  return runs.map((r) => `• ${when(r.at)}${r.dst ? ` _(${escapeMrkdwn(r.dst)})_` : ''}`).join('\n');
}

/** The reply to a new schedule: in words, its zone, its next three runs. */
export function createdMessage(
  s: Schedule,
  o: { words: string; runs: readonly PlannedRun[]; needsApproval: boolean; number: number; masked?: boolean },
): MessageBody {
  const what = s.kind === 'digest' ? "this channel's digest" : code(`/tsai ${s.command}`);
  const head = `${mention(s.ownerId)} scheduled ${what} *${escapeMrkdwn(o.words)}*, in ${escapeMrkdwn(s.timeZone)} time.`;
  const blocks: KnownBlock[] = [section(head)];
  if (o.needsApproval)
    blocks.push(
      section(
        ':lock: A live start or stop runs on a schedule only once an approver approves the schedule itself; each run then needs no approval. The request is with the approvers.',
      ),
    );
  blocks.push(
    section(`*${o.needsApproval ? 'Once approved, it would run' : 'Next runs'}:*\n${runLines(o.runs)}`),
  );
  if (o.masked) blocks.push(context(escapeMrkdwn(MASKED_NOTE)));
  blocks.push(
    context(
      `Schedule ${o.number} · \`/tsai schedule pause ${o.number}\` · \`/tsai schedule delete ${o.number}\` · \`/tsai schedules\``,
    ),
  );
  return {
    text: truncate(`${head} Next: ${o.runs.map((r) => utcText(r.at)).join(', ')}`, LIMITS.text),
    blocks,
  };
}

const OUTCOME_WORDS: Record<ScheduleRunOutcome, string> = {
  ok: ':white_check_mark: ran',
  failed: ':x: failed',
  refused: ':no_entry: refused',
  skipped: ':fast_forward: skipped',
  unknown: ':grey_question: outcome unknown',
};

function lastLine(s: Schedule): string {
  if (!s.lastOutcome || s.lastRunAt === null) return 'not run yet';
  const detail = s.lastDetail ? `: ${escapeMrkdwn(shorten(s.lastDetail, 160))}` : '';
  return `last ${when(s.lastRunAt)} ${OUTCOME_WORDS[s.lastOutcome]}${detail}`;
}

function statusLine(s: Schedule): string {
  if (s.status === 'active' && s.nextRunAt !== null) return `next ${when(s.nextRunAt)}`;
  const why = s.statusReason ? ` (${escapeMrkdwn(s.statusReason)})` : '';
  return `*${STATUS_WORDS[s.status]}*${why}`;
}

/** One schedule as a list line: its number, what it runs and when, who owns it, next and last run. */
export function scheduleLine(s: Schedule, n: number, o: { channel?: boolean } = {}): string {
  const what = s.kind === 'digest' ? 'the channel digest' : code(shorten(`/tsai ${s.command}`, 300));
  const where = o.channel ? ` in <#${s.channelId}>` : '';
  // On the Home (every channel) numbers would not match any channel's `/tsai schedules`.
  return `${o.channel ? '•' : `*${n}.*`} ${what} — ${escapeMrkdwn(shorten(s.whenText, 120))} (${escapeMrkdwn(s.timeZone)})${where}, by ${mention(s.ownerId)}\n${statusLine(s)} · ${lastLine(s)}`;
}

/** One page of a channel's schedules: how many there are, and how to see the rest. */
export function listMessage(p: SchedulesPage): MessageBody {
  if (p.total === 0) {
    const text = `This channel has no schedules. Make one: ${code('/tsai schedule "every weekday at 06:00" <command>')}, or a digest: ${code('/tsai digest "every weekday at 07:00"')}.`;
    return { text, blocks: [section(text)] };
  }
  const last = p.first + p.schedules.length - 1;
  const head =
    p.pages > 1
      ? `*This channel's ${plural(p.total, 'schedule')}* (${p.first} to ${last}, page ${p.page} of ${p.pages})`
      : `*This channel's ${plural(p.total, 'schedule')}*`;
  const blocks: KnownBlock[] = [section(head)];
  for (const [i, s] of p.schedules.entries()) blocks.push(section(scheduleLine(s, p.first + i)));
  const more =
    p.pages > 1
      ? ` ${p.page < p.pages ? `The next ${plural(Math.min(SCHEDULES_PAGE, p.total - last), 'schedule')}: ${code(`/tsai schedules ${p.page + 1}`)}.` : `The first ones: ${code('/tsai schedules 1')}.`}`
      : '';
  blocks.push(
    context(
      `Owners and approvers may ${code('/tsai schedule pause|resume|delete <number, name or ID>')}.${more}`,
    ),
  );
  return {
    text: `This channel has ${plural(p.total, 'schedule')}.${more}`,
    blocks: limitBlocks(blocks),
  };
}

export function changedMessage(c: Extract<Changed, { ok: true }>, by: string): MessageBody {
  const s = c.schedule;
  const next = s.status === 'active' && s.nextRunAt !== null ? ` It runs next ${when(s.nextRunAt)}.` : '';
  if (c.action === 'take') {
    const then = c.needsApproval
      ? ' It is a live start or stop, so it waits for its approvers again before it runs as theirs.'
      : next;
    const text = `${mention(by)} took over the schedule ${code(s.name)}${c.previousOwner ? ` from ${mention(c.previousOwner)}` : ''}: it is theirs now, and runs as them.${then}`;
    return { text, blocks: [section(text)] };
  }
  const past = { pause: 'paused', resume: 'resumed', delete: 'deleted' }[c.action];
  const text = `${mention(by)} ${past} the schedule ${code(s.name)}.${next}`;
  return { text, blocks: [section(text)] };
}

/** What the owner is told, once, about their schedule. */
export function eventMessage(e: ScheduleEvent): MessageBody {
  const s = e.schedule;
  const name = `${code(s.name)} in <#${s.channelId}>`;
  let text: string;
  const blocks: KnownBlock[] = [];
  switch (e.kind) {
    case 'skipped': {
      const list = e.missed.slice(-5).map(when).join(', ');
      text = `:fast_forward: Your schedule ${name} missed ${plural(e.missed.length, 'run')} while the bot was not running (${list}); ${e.missed.length === 1 ? 'it was' : 'they were'} skipped, not run late.${e.ranLatest ? ' The latest one, less than the catch-up time late, ran now.' : ''}`;
      break;
    }
    case 'paused-token':
      text = `:pause_button: Your schedule ${name} is paused: the service turned down your token at its run of ${when(e.plannedAt)}, so nothing was sent. Reconnect with a new token, then \`/tsai schedule resume ${s.id}\`.`;
      blocks.push(connectActions('reconnect'));
      break;
    case 'interrupted':
      text = `:grey_question: The run of your schedule ${name} at ${when(e.run.plannedAt)} was cut off (the bot stopped while it was under way): the service may or may not have acted. Check its Activity view; the schedule goes on.`;
      break;
    case 'paused':
      text = `:pause_button: Your schedule ${name} is paused: ${escapeMrkdwn(e.reason.replace(/^its owner /, 'you '))}, so its run of ${when(e.plannedAt)} was not made and nothing was sent. Once you may run it again, ${code(`/tsai schedule resume ${s.id}`)}; or delete it: ${code(`/tsai schedule delete ${s.id}`)}.`;
      if (e.connect) blocks.push(connectActions(e.connect));
      break;
    case 'reapproval':
      text = `:lock: Your schedule ${name} waits for its approvers again: ${escapeMrkdwn(e.reason)} Its card is with them.`;
      break;
  }
  return { text: truncate(text, LIMITS.text), blocks: [section(text), ...blocks] };
}

/**
 * What a schedule's channel is told when it stops running as its owner (paused, or back to its approvers):
 * why, and who can take it over or delete it.
 */
export function channelEventMessage(
  e: Extract<ScheduleEvent, { kind: 'paused' | 'reapproval' }>,
  approvers: { users: readonly string[]; groups: readonly string[] },
): MessageBody {
  const s = e.schedule;
  const what = `${code(s.name)} of ${mention(s.ownerId)}`;
  const text =
    e.kind === 'paused'
      ? `:pause_button: The schedule ${what} is paused: ${escapeMrkdwn(e.reason)}, so its run of ${when(e.plannedAt)} was not made. Someone who may run it here can take it over (${code(`/tsai schedule take ${s.id}`)}), and its owner or an approver (${askWhom(approvers)}) can delete it (${code(`/tsai schedule delete ${s.id}`)}).`
      : `:lock: The schedule ${what} did not run at ${when(e.plannedAt)}: ${escapeMrkdwn(e.reason)} It waits for ${askWhom(approvers)} to approve it again, or its owner or an approver can delete it (${code(`/tsai schedule delete ${s.id}`)}).`;
  return { text: truncate(text, LIMITS.text), blocks: [section(text)] };
}

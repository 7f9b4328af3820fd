import type { Schedule, ScheduleRunOutcome } from '../../core/records.js';
import type { PlannedRun } from '../../core/schedules/preview.js';
import type { ScheduleEvent } from '../../core/schedules/runner.js';
import { STATUS_WORDS } from '../../core/schedules/status.js';
import { connectActions } from '../views/connect.js';
import type { MessageBody } from '../views/messages.js';
import {
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
} from '../views/mrkdwn.js';

const when = (ms: number) => slackTime(ms, '{date_short_pretty} at {time}');

/** The next runs, each a Slack date (shown in the reader's own zone), DST days marked. */
export function runLines(runs: readonly PlannedRun[]): string {
  return runs.map((r) => `• ${when(r.at)}${r.dst ? ` _(${escapeMrkdwn(r.dst)})_` : ''}`).join('\n');
}

/** The reply to a new schedule: in words, its zone, its next three runs. */
export function createdMessage(
  s: Schedule,
  o: { words: string; runs: readonly PlannedRun[]; needsApproval: boolean; number: number },
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
  blocks.push(
    context(
      `Schedule ${o.number} · \`/tsai schedule pause ${o.number}\` · \`/tsai schedule delete ${o.number}\` · \`/tsai schedules\``,
    ),
  );
  return {
    text: truncate(
      `${head} Next: ${o.runs.map((r) => new Date(r.at).toISOString().slice(0, 16)).join(', ')}`,
      LIMITS.text,
    ),
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

export function listMessage(list: readonly Schedule[]): MessageBody {
  if (list.length === 0) {
    const text = `This channel has no schedules. Make one: ${code('/tsai schedule "every weekday at 06:00" <command>')}, or a digest: ${code('/tsai digest "every weekday at 07:00"')}.`;
    return { text, blocks: [section(text)] };
  }
  const blocks: KnownBlock[] = [section(`*This channel's ${plural(list.length, 'schedule')}*`)];
  for (const [i, s] of list.entries()) blocks.push(section(scheduleLine(s, i + 1)));
  blocks.push(context(`Owners and approvers may ${code('/tsai schedule pause|resume|delete <number>')}.`));
  return { text: `This channel has ${plural(list.length, 'schedule')}.`, blocks: limitBlocks(blocks) };
}

export function changedMessage(s: Schedule, action: string, by: string): MessageBody {
  const past = { pause: 'paused', resume: 'resumed', delete: 'deleted' }[action] ?? action;
  const next = s.status === 'active' && s.nextRunAt !== null ? ` It runs next ${when(s.nextRunAt)}.` : '';
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
  }
  return { text: truncate(text, LIMITS.text), blocks: [section(text), ...blocks] };
}

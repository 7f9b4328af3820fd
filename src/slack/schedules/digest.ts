import type { Schedule } from '../../core/records.js';
import { type DigestData, digestPeriod, readDigest } from '../../core/schedules/digest.js';
import type { Asker } from '../../core/schedules/manage.js';
import type { Bot } from '../bot.js';
import { shownOutputs } from '../flows/index.js';
import { isNotInChannel, tellInviteOnce } from '../invite-hint.js';
import { type Audience, postInChannel, sendOrPlain, tellUser } from '../reply.js';
import type { MessageBody } from '../views/messages.js';
import {
  code,
  context,
  escapeMrkdwn,
  type KnownBlock,
  LIMITS,
  mention,
  plural,
  section,
  shorten,
  slackTime,
  truncate,
} from '../views/mrkdwn.js';

/** Lines per part before it is summarised: one message, within Slack's 50 blocks and 3,000 characters a block. */
const LINES = 8;

function part(title: string, lines: string[], more: string): KnownBlock[] {
  if (lines.length === 0) return [];
  const shown = lines.slice(0, LINES);
  const rest = lines.length - shown.length;
  const body = `*${title}*\n${shown.join('\n')}${rest > 0 ? `\n…and ${rest} more: ${more}` : ''}`;
  return [section(truncate(body, LIMITS.text))];
}

const at = (ms: number) => slackTime(ms, '{date_short_pretty} {time}');

/** How long the outputs of one completed flow run on its digest line. */
const OUTPUTS_CHARS = 300;

/**
 * What a completed flow yielded, on one line, as its entry declares and its end notice shows it: as many
 * as fit, whole (a cut code span would show its backticks), then how many more.
 */
function yieldedLine(f: DigestData['completed'][number], timeZone: string): string {
  const parts = shownOutputs(f, timeZone).map(
    (o) => `${escapeMrkdwn(o.heading)} ${o.value.replaceAll('\n', ', ')}`,
  );
  const fit: string[] = [];
  for (const p of parts) {
    if ([...fit, p].join(' · ').length > OUTPUTS_CHARS) break;
    fit.push(p);
  }
  const more = parts.length - fit.length;
  if (parts.length === 0) return '';
  return ` — ${fit.join(' · ')}${more ? `${fit.length ? ' · ' : ''}${plural(more, 'more output')}: \`/tsai flow ${f.flowId}\`` : ''}`;
}

/**
 * The digest as one message: each part a section, long parts summarised with a pointer to the full list.
 * `timeZone`: the reader's (the schedule's, or the person who asked), for the ranges flows yielded.
 */
export function digestMessage(d: DigestData, timeZone: string): MessageBody {
  const head = `:newspaper: *Digest for <#${d.channelId}>*, ${at(d.since)} to ${at(d.until)}`;
  const counts = `${plural(d.started.length, 'flow')} started · ${d.completed.length} completed · ${d.failed.length} failed or cancelled · ${d.running.length} still running · ${plural(d.waiting.length, 'approval')} waiting`;
  const flowLine = (f: DigestData['started'][number]) =>
    `• ${code(f.flowType)} ${code(f.flowId)} by ${mention(f.requesterId)}: ${escapeMrkdwn(f.status)}`;
  const blocks: KnownBlock[] = [
    section(head),
    context(escapeMrkdwn(counts)),
    ...part(
      'Failed',
      d.failed.map((f) => `${flowLine(f)}${f.failure ? ` — ${escapeMrkdwn(shorten(f.failure, 200))}` : ''}`),
      '`/tsai flows 25`',
    ),
    ...part(
      'Completed',
      d.completed.map((f) => `${flowLine(f)}${yieldedLine(f, timeZone)}`),
      '`/tsai flows 25`',
    ),
    ...part('Still running', d.running.map(flowLine), '`/tsai flows 25`'),
    ...part(
      'Approvals waiting',
      d.waiting.map(
        (a) =>
          `• live ${a.action} of model ${code(a.modelId)}, asked by ${mention(a.requesterId)} ${at(a.createdAt)}`,
      ),
      '`/tsai approvals`',
    ),
    ...part(
      'Approvals decided',
      d.decided.map(
        (a) =>
          `• live ${a.action} of model ${code(a.modelId)}: ${escapeMrkdwn(a.status)}${a.decidedBy ? ` by ${mention(a.decidedBy)}` : ''}${a.rejectReason ? ` — ${escapeMrkdwn(shorten(a.rejectReason, 200))}` : ''}`,
      ),
      '`/tsai audit`',
    ),
    ...part(
      'Schedule runs skipped or failed',
      d.troubled.map(
        ({ schedule, run }) =>
          `• ${code(shorten(schedule.name, 80))} at ${at(run.plannedAt)}: ${escapeMrkdwn(run.state)}${run.detail ? ` — ${escapeMrkdwn(shorten(run.detail, 200))}` : ''}`,
      ),
      '`/tsai schedules`',
    ),
    ...part(
      'Runs next',
      d.next.map(
        (s) =>
          `• ${at(s.nextRunAt!)} ${code(shorten(s.kind === 'digest' ? 'digest' : `/tsai ${s.command}`, 200))}`,
      ),
      '`/tsai schedules`',
    ),
  ];
  if (blocks.length === 2) blocks.push(section('Nothing happened in this channel in this period.'));
  return { text: truncate(`Digest for this channel: ${counts}`, LIMITS.text), blocks };
}

/** `/tsai digest now`: the last day's, posted in the channel. */
export async function postDigestNow(bot: Bot, asker: Asker, to: Audience): Promise<void> {
  const until = bot.now().getTime();
  const data = await readDigest(bot.store, {
    channelId: asker.channelId,
    ...(asker.teamId ? { teamId: asker.teamId } : {}),
    since: digestPeriod(undefined, until),
    until,
  });
  const body = digestMessage(data, asker.person.timeZone);
  (await postInChannel(bot, to, body)) || (await tellUser(bot, to, body));
}

/**
 * A digest schedule's run: the period since its previous run, posted in its channel. Where the bot is not
 * in that channel, the owner gets it by direct message instead, and is told once how to invite the bot.
 */
export async function postScheduledDigest(bot: Bot, s: Schedule, plannedAt: number): Promise<void> {
  const data = await readDigest(bot.store, {
    channelId: s.channelId,
    ...(s.teamId ? { teamId: s.teamId } : {}),
    since: digestPeriod(s, plannedAt),
    until: plannedAt,
  });
  const body = digestMessage(data, s.timeZone);
  const post = (channel: string) =>
    sendOrPlain(bot, body, (b) => bot.slack.chat.postMessage({ channel, text: b.text, blocks: b.blocks }));
  try {
    await post(s.channelId);
  } catch (e) {
    if (!isNotInChannel(e)) throw e;
    await post(s.ownerId);
    await tellInviteOnce(
      bot,
      { userId: s.ownerId, channelId: s.channelId },
      { kind: 'dm-digest', channelId: s.channelId },
    );
  }
}

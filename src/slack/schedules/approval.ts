import { approversRuleText, MODEL_DOUBT_CHECK, modelDoubtText } from '../../core/approvals/rules.js';
import type { Schedule } from '../../core/records.js';
import type { DecidedSchedule } from '../../core/schedules/approval.js';
import { type PlannedRun, previewRuns } from '../../core/schedules/preview.js';
import { ruleOf } from '../../core/schedules/rule.js';
import type { Bot } from '../bot.js';
import { say } from '../reply.js';
import type { MessageBody } from '../views/messages.js';
import {
  askWhom,
  code,
  context,
  escapeMrkdwn,
  type KnownBlock,
  LIMITS,
  mention,
  section,
  truncate,
} from '../views/mrkdwn.js';
import type { ScheduleJob } from './jobs.js';
import { runLines } from './views.js';

/** `action_id`s of the buttons on a schedule's approval card; the value is the schedule's ID. */
export const SCHEDULE_ACTION = {
  approve: 'schedule_approve',
  reject: 'schedule_reject',
  revoke: 'schedule_revoke',
} as const;

/** The card approvers decide on: what would run, when (the next runs as Slack dates), and who asks. */
export function approvalCard(s: Schedule, runs: readonly PlannedRun[]): MessageBody {
  const what = code(`/tsai ${s.command}`);
  const state: Record<Schedule['status'], string> = {
    'awaiting-approval':
      ':lock: *Waiting for an approver.* Once approved, each run needs no approval of its own.',
    active: `:white_check_mark: *Approved* by ${s.statusBy ? mention(s.statusBy) : 'an approver'}: it runs on its own. An approver may revoke it.`,
    paused: `:pause_button: *Approved, paused* (${escapeMrkdwn(s.statusReason ?? 'paused')}). An approver may revoke it.`,
    rejected: `:no_entry: *${s.statusReason === 'its approval was revoked' ? 'Approval revoked' : 'Rejected'}* by ${s.statusBy ? mention(s.statusBy) : 'an approver'}: it never runs.`,
    deleted: ':wastebasket: *Deleted*: it never runs.',
  };
  const head = `${mention(s.ownerId)} asks to run ${what} *${escapeMrkdwn(s.whenText)}* (${escapeMrkdwn(s.timeZone)}) in <#${s.channelId}>.`;
  const doubt = modelDoubtText({ modelId: modelOf(s), modelDoubt: s.modelDoubt });
  const blocks: KnownBlock[] = [
    section(head),
    section(`*It would run:*\n${runLines(runs)}`),
    section(
      `*Decided by* ${escapeMrkdwn(approversRuleText(s))}.${doubt ? ` ${escapeMrkdwn(`${doubt} ${MODEL_DOUBT_CHECK}`)}` : ''}`,
    ),
    section(state[s.status]),
  ];
  const button = (text: string, action: string, style?: 'primary' | 'danger') => ({
    type: 'button' as const,
    text: { type: 'plain_text' as const, text },
    action_id: action,
    value: s.id,
    ...(style ? { style } : {}),
  });
  if (s.status === 'awaiting-approval')
    blocks.push({
      type: 'actions',
      elements: [
        button('Approve schedule', SCHEDULE_ACTION.approve, 'primary'),
        button('Reject', SCHEDULE_ACTION.reject, 'danger'),
      ],
    });
  if (s.status === 'active' || s.status === 'paused')
    blocks.push({ type: 'actions', elements: [button('Revoke approval', SCHEDULE_ACTION.revoke, 'danger')] });
  blocks.push(
    context(`Schedule ${code(s.id)} · a live start or stop on a schedule needs one approval of the schedule`),
  );
  return { text: truncate(`Schedule approval: ${head}`, LIMITS.text), blocks };
}

/** The model a schedule of live starts or stops names (its command's first ID after `live start|stop`). */
function modelOf(s: Schedule): string {
  return /^live\s+(?:start|stop)\s+(?:model=)?(\d+)/i.exec(s.command)?.[1] ?? 'its model';
}

/** Posts the card where approval requests go (TSAI_APPROVALS_CHANNEL, else the schedule's channel). */
export async function askApproval(bot: Bot, s: Schedule, runs: readonly PlannedRun[]): Promise<void> {
  const channel = bot.config.approvals.channel ?? s.channelId;
  const body = approvalCard(s, runs);
  try {
    await bot.slack.chat.postMessage({ channel, text: body.text, blocks: body.blocks });
  } catch (e) {
    bot.logger.warn({ schedule: s.id, err: String(e) }, 'could not post a schedule’s approval card');
    await say(
      bot,
      { userId: s.ownerId, responseUrls: [] },
      'The bot could not post your schedule’s approval request in the approvals channel; ask an approver to look at `/tsai schedules`.',
    );
  }
}

/**
 * An approver's click: through the one gate (the decider, the schedule within their team) and the approvers'
 * rule, decided once in the store; the card shows the result, the clicker hears a refusal.
 */
export async function followScheduleDecision(
  job: Extract<ScheduleJob, { kind: 'schedule-decision' }>,
  bot: Bot,
): Promise<void> {
  const result = await bot.operations.run(
    {
      userId: job.userId,
      ...(job.teamId ? { teamId: job.teamId } : {}),
      channelId: job.channelId ?? '',
      asked: `${job.decision} schedule ${job.scheduleId}`,
      timeZone: bot.config.defaultTimeZone,
      via: 'approval',
      surface: 'button',
    },
    {
      kind: 'schedule-decision',
      decision: job.decision,
      scheduleId: job.scheduleId,
      ...(job.channelId ? { channelId: job.channelId } : {}),
    },
  );
  const decided: DecidedSchedule =
    result.ok && result.kind === 'schedule-decision'
      ? result.decided
      : { ok: false, message: result.ok ? '' : result.message };
  const to = { userId: job.userId, ...(job.channelId ? { channelId: job.channelId } : {}), responseUrls: [] };
  const s = decided.schedule;
  if (s && job.channelId && job.messageTs) {
    const body = approvalCard(s, previewRuns(ruleOf(s), bot.now().getTime(), 3));
    await bot.slack.chat
      .update({ channel: job.channelId, ts: job.messageTs, text: body.text, blocks: body.blocks })
      .catch((e: unknown) =>
        bot.logger.warn({ schedule: s.id, err: String(e) }, 'could not update a schedule’s approval card'),
      );
  }
  if (!decided.ok) {
    const ask = decided.ask ? ` ${decided.askLead ?? 'Ask'} ${askWhom(decided.ask)}.` : '';
    return void (await say(bot, to, `:warning: ${escapeMrkdwn(decided.message)}${ask}`));
  }
  const verb = { approve: 'approved', reject: 'rejected', revoke: 'revoked the approval of' }[
    decided.decision
  ];
  await say(
    bot,
    { userId: decided.schedule.ownerId, responseUrls: [] },
    `${mention(job.userId)} ${verb} your schedule ${code(decided.schedule.name)} in <#${decided.schedule.channelId}>.`,
  );
}

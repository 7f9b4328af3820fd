import type { types } from '@slack/bolt';
import type { TrackedFlow } from '../../core/records.js';
import { allNextSteps, flowOutputs, nextStepsOf, type Output } from '../../core/tracking/outputs.js';
import type { TrackedRequest } from '../../core/tracking/tracker.js';
import { MODAL_ACTION } from '../views/form-actions.js';
import { type MessageBody, resultMessage } from '../views/messages.js';
import {
  button,
  code,
  context,
  escapeMrkdwn,
  fieldsSection,
  type KnownBlock,
  limitBlocks,
  mention,
  plural,
  section,
  slackTime,
} from '../views/mrkdwn.js';
import { canRepeat, REPEAT_FLOW } from '../views/schedule-actions.js';

const FLOW_NEXT_PREFIX = 'tsai_flow_';

/** The `action_id` of the button under a finished flow that takes this next step (`score`, `live-start`). */
export function flowNextActionId(step: string): string {
  return `${FLOW_NEXT_PREFIX}${step}`;
}

/** Every next-step button's `action_id`, whichever form it opens (one registered later included). */
export const FLOW_NEXT_ACTIONS = new RegExp(`^${FLOW_NEXT_PREFIX}[a-z0-9-]+$`);

/** The next step a button takes, from its `action_id`. */
export function formOfFlowNext(actionId: string): string {
  return actionId.slice(FLOW_NEXT_PREFIX.length);
}

/** The key of a next-step button's value that names the thread it answers in (no argument is so named). */
export const NEXT_STEP_THREAD = 'thread';

/** Every next-step button's `action_id`, by next step: each one the registry declares has one. */
export const FLOW_ACTION: Readonly<Record<string, string>> = Object.fromEntries(
  allNextSteps().map((s) => [s.id, flowNextActionId(s.id)]),
);

const ACTIVITY = "follow it in the service's Activity view";

export function requestOf(f: TrackedFlow): TrackedRequest {
  return f.request as unknown as TrackedRequest;
}

/** "4 min", "2 h 5 min", "3 d 1 h": how long a flow has run, for people. */
export function elapsed(ms: number): string {
  const min = Math.max(0, Math.round(ms / 60_000));
  if (min < 1) return 'under a minute';
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h${min % 60 ? ` ${min % 60} min` : ''}`;
  return `${Math.floor(h / 24)} d${h % 24 ? ` ${h % 24} h` : ''}`;
}

const ICON: Record<string, string> = {
  CREATED: ':hourglass_flowing_sand:',
  RUNNING: ':gear:',
  COMPLETED: ':white_check_mark:',
  FAILED: ':x:',
  CANCELLED: ':no_entry_sign:',
};

/** Why a flow that ended other than COMPLETED ended, as the service said it, wherever the flow is shown. */
function failureReason(f: TrackedFlow): string {
  if (f.status.toUpperCase() === 'COMPLETED') return '';
  return ` The service said: ${escapeMrkdwn(f.failure ?? 'no reason given')}`;
}

/**
 * The line that moves as the flow goes on: its status as the service wrote it (an unknown one shown as
 * is) and how long it has run; or, once the bot stopped following it, why and where to look instead.
 */
export function statusLine(f: TrackedFlow, now: number): string {
  const status = escapeMrkdwn(f.status);
  const icon = ICON[f.status.toUpperCase()] ?? ':grey_question:';
  const ran = elapsed((f.endReason ? f.statusChangedAt : now) - f.createdAt);
  switch (f.endReason) {
    case null:
      return `${icon} *${status}* for ${ran}`;
    case 'ended':
      return `${icon} *${status}* after ${ran}.${failureReason(f)}`;
    case 'max-age':
      return `:hourglass: *${status}* when the bot stopped following this flow after ${elapsed(now - f.createdAt)}: ${ACTIVITY}.`;
    case 'unsupported':
      return `:eyes: The service does not report flow status through its API: ${ACTIVITY}.`;
    case 'unauthorized':
      return `:lock: The bot can no longer read this flow (${escapeMrkdwn(f.failure ?? 'the service refused its token')}): ${ACTIVITY}.`;
    case 'not-found':
      return `:grey_question: The service no longer knows this flow: ${ACTIVITY}.`;
  }
}

/** The announcement at its current state: the message first posted, with the status moved on. */
export function announcementMessage(f: TrackedFlow, now: number): MessageBody {
  const { outcome } = requestOf(f);
  const body = resultMessage(
    { ...outcome, flow: { id: f.flowId, status: f.status } },
    { userId: f.requesterId, commandText: f.asked },
  );
  const blocks = [...body.blocks];
  const line = f.endReason
    ? statusLine(f, now)
    : `${statusLine(f, now)} · the bot follows it and updates this message.`;
  blocks.splice(Math.max(1, blocks.length - 1), 0, section(line));
  return { text: body.text, blocks: limitBlocks(blocks) };
}

/** One output's value as a person reads it: as its type shows it, times in their zone, one line a line. */
export function shownValue(o: Output, timeZone: string): string {
  const words = o.spec.shown === 'hidden' ? undefined : o.spec.shown.words;
  return o.spec.type
    .show(o.value, { timeZone, ...(words ? { words } : {}) })
    .map((line) => line.map((p) => ('code' in p ? code(p.code) : escapeMrkdwn(p.text))).join(''))
    .join('\n');
}

/** What a finished flow yielded that a person sees, as its entry declares: each with its heading. */
export function shownOutputs(f: TrackedFlow, timeZone: string): { heading: string; value: string }[] {
  return flowOutputs(f).outputs.flatMap((o) =>
    o.spec.shown === 'hidden'
      ? []
      : [{ heading: o.spec.shown.heading ?? o.spec.label, value: shownValue(o, timeZone) }],
  );
}

/**
 * What the flow yielded, as fields, in the order its outputs are declared; and the next steps it makes
 * possible. A button carries the IDs its step needs and, for a flow asked in a thread, that thread: what
 * it starts is answered there, as the flow was.
 */
function results(
  f: TrackedFlow,
  timeZone: string,
  thread: string | undefined,
): { fields: string[]; next: types.Button[] } {
  const fields = shownOutputs(f, timeZone).map((o) => `*${escapeMrkdwn(o.heading)}*\n${o.value}`);
  const next = nextStepsOf(flowOutputs(f)).map((step) =>
    button(
      step.label,
      flowNextActionId(step.id),
      JSON.stringify({ ...step.given, ...(thread ? { [NEXT_STEP_THREAD]: thread } : {}) }),
      step.primary ? 'primary' : undefined,
    ),
  );
  return { fields, next };
}

/**
 * The one reply at the end, in the announcement's thread (or as a direct message): it mentions the
 * requester (their one notification) and carries the results and the buttons for the next step.
 * `reopen`: the value of "Reopen with my inputs", for a flow that did not complete; `thread`: the thread
 * it was asked in, when it is told there.
 */
export function completionMessage(
  f: TrackedFlow,
  o: { timeZone: string; reopen?: string; where?: string; thread?: string },
): MessageBody {
  const who = mention(f.requesterId);
  const what = `${escapeMrkdwn(f.flowType)} flow ${code(f.flowId)}`;
  const ran = elapsed(f.statusChangedAt - f.createdAt);
  const ok = f.status.toUpperCase() === 'COMPLETED';
  const headline = ok
    ? `${who} your ${what} completed after ${ran}.`
    : `${who} your ${what} ended ${escapeMrkdwn(f.status)} after ${ran}.`;
  const blocks: KnownBlock[] = [section(`${ICON[f.status.toUpperCase()] ?? ':grey_question:'} ${headline}`)];
  const { fields, next } = ok ? results(f, o.timeZone, o.thread) : { fields: [], next: [] };
  blocks.push(...fieldsSection(fields));
  if (!ok) blocks.push(section(`*The service said:* ${escapeMrkdwn(f.failure ?? 'no reason given')}`));
  const buttons = [...next];
  if (!ok && o.reopen)
    buttons.push(button('Reopen with my inputs', MODAL_ACTION.reopen, o.reopen, 'primary'));
  if (ok && canRepeat(f.asked)) buttons.push(button('Run this every …', REPEAT_FLOW.action, f.flowId));
  if (buttons.length) blocks.push({ type: 'actions', block_id: 'flow_next', elements: buttons });
  blocks.push(context(`${o.where ? `${o.where} · ` : ''}Asked as ${code(f.asked)}`));
  return { text: headline, blocks: limitBlocks(blocks) };
}

/** `/tsai flows [n]`: the channel's latest flows, as followed. */
export function flowsListMessage(flows: TrackedFlow[], now: number): MessageBody {
  if (flows.length === 0) {
    const text = 'No flows were started from this channel yet (or the bot does not follow flows).';
    return { text, blocks: [section(text)] };
  }
  const heading =
    flows.length === 1
      ? 'The latest flow started here'
      : `The latest ${flows.length} flows started here, newest first`;
  const blocks: KnownBlock[] = [section(`*${heading}*`)];
  for (const f of flows) {
    blocks.push(
      section(
        `${code(f.flowId)} ${escapeMrkdwn(f.flowType)} by ${mention(f.requesterId)} ${slackTime(f.createdAt)}\n${statusLine(f, now)}`,
      ),
    );
  }
  return { text: plural(flows.length, 'flow'), blocks: limitBlocks(blocks) };
}

/** `/tsai flow <id>`: what following the flow found, then the service's answer now. */
export function flowStatusMessage(
  flowId: string,
  tracked: TrackedFlow | null,
  fresh: MessageBody,
  o: { now: number; timeZone: string },
): MessageBody {
  if (!tracked) return fresh;
  const blocks: KnownBlock[] = [
    section(
      `*Flow ${code(flowId)}* (${escapeMrkdwn(tracked.flowType)}), started by ${mention(tracked.requesterId)} in <#${tracked.channelId}> ${slackTime(tracked.createdAt)}\n${statusLine(tracked, o.now)}`,
    ),
  ];
  if (tracked.endReason === 'ended') {
    const done = completionMessage(tracked, { timeZone: o.timeZone });
    blocks.push(...done.blocks.filter((b) => b.type === 'section' && 'fields' in b));
  }
  blocks.push(context('The service says now:'), ...fresh.blocks);
  return { text: `Flow ${flowId}: ${tracked.status}`, blocks: limitBlocks(blocks) };
}

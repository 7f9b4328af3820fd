import { fieldsFromCommand } from '../../core/forms/prefill.js';
import { commandArguments } from '../../core/grammar/parse.js';
import { entryOfCommand } from '../../core/operations/registry/index.js';
import type { TrackedFlow } from '../../core/records.js';
import type { FlowNotifier, NotifyResult } from '../../core/tracking/tracker.js';
import { errText } from '../../log.js';
import { approvalMessage, copiesOf } from '../approvals/index.js';
import type { Bot } from '../bot.js';
import { announceChange, flowChange } from '../changes.js';
import { sendOrPlain } from '../reply.js';
import { postToResponseUrl } from '../respond.js';
import { type SlackFailure, slackFailure } from '../slack-errors.js';
import { saveDraft } from '../views/form-drafts.js';
import type { MessageBody } from '../views/messages.js';
import { writtenFor } from '../views/typed-commands.js';
import { announcementMessage, completionMessage } from './views.js';

/** A response_url takes 5 posts within 30 minutes (Slack); the last is kept for the flow's end. */
export const RESPONSE_URL_USES = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60_000;
/**
 * While Slack fails (5xx, no answer) or refuses the token, a flow's status and end notice are tried
 * again for this long after the status they show changed; past it the update is given up and the end,
 * still recorded in the store (`/tsai flows`, the Home), is logged as not told.
 */
export const SLACK_RETRY_WINDOW_MS = 10 * 60_000;

/**
 * When to try again after a failure, or undefined to give up. A 429's wait gets up to half again on top,
 * so that the many messages one busy minute put off do not all come back in the same second; Slack
 * failing or refusing the token is tried again at a pace that slows as it lasts (2 s to 1 min), within
 * `SLACK_RETRY_WINDOW_MS` of `since`.
 */
function retryAt(f: SlackFailure, now: number, since: number): number | undefined {
  const jitter = (ms: number) => Math.round(ms * (1 + Math.random() * 0.5));
  if (f.kind === 'rate-limited') return now + jitter(f.retryAfterMs ?? 1000);
  if (f.kind !== 'unavailable' && f.kind !== 'auth') return undefined;
  const waited = now - since;
  if (waited >= SLACK_RETRY_WINDOW_MS) return undefined;
  return now + jitter(Math.min(60_000, Math.max(2_000, waited / 2)));
}

/**
 * How the bot shows a followed flow in Slack. Its status moves in place on the announcement the bot
 * posted (`chat.update`), or on the approval request's card; at the end one reply in its thread mentions
 * the requester. A flow the bot could only announce through a command's response_url (it may not post in
 * that channel) is told at its end through that response_url while it has uses and time left (5 within
 * 30 minutes), else by direct message. A message is updated only when what it shows changes, and
 * Slack's rate limits are obeyed as Slack states them: a 429's Retry-After puts off only the message it
 * was about, while the others go on.
 */
export function createFlowNotifier(root: Bot): FlowNotifier {
  const log = root.logger.child({ part: 'flow-tracking' });

  /** When Slack may get over `e`, the result that puts this flow off until then (logged, unless a 429). */
  const tryAgainLater = (
    e: unknown,
    f: TrackedFlow,
    now: number,
    where: Record<string, string>,
    msg: string,
  ): NotifyResult | undefined => {
    const failure = slackFailure(e);
    const at = retryAt(failure, now, f.statusChangedAt);
    if (at === undefined) return undefined;
    if (failure.kind !== 'rate-limited') log.info({ flowId: f.flowId, ...where, err: errText(e) }, msg);
    return { kind: 'later', notBefore: at };
  };

  const update = async (
    bot: Bot,
    channel: string,
    ts: string,
    body: MessageBody,
    f: TrackedFlow,
    now: number,
  ): Promise<NotifyResult> => {
    try {
      await sendOrPlain(bot, body, (b) =>
        bot.slack.chat.update({ channel, ts, text: b.text, blocks: b.blocks as never }),
      );
      return { kind: 'done' };
    } catch (e) {
      const later = tryAgainLater(
        e,
        f,
        now,
        { channel },
        'could not update a flow announcement; trying again later',
      );
      if (later) return later;
      log.warn(
        { flowId: f.flowId, channel, err: errText(e) },
        'could not update a flow announcement; the end is still told',
      );
      return { kind: 'skipped' };
    }
  };

  return {
    async show(f, now) {
      const bot = await speakingFor(root, f);
      if (!bot) return { kind: 'skipped' };
      if (f.origin === 'approval' && f.approvalId) {
        const r = await bot.approvals.get(f.approvalId);
        if (!r) return { kind: 'skipped' };
        // Copies sent to approvers directly (the channel did not take the card) follow as they can.
        for (const c of await copiesOf(bot.store, r.id).catch(() => [])) {
          const shown = await update(bot, c.channel, c.ts, approvalMessage(r, f), f, now);
          if (shown.kind !== 'done')
            log.info({ flowId: f.flowId, channel: c.channel }, 'a copy of the request card was not updated');
        }
        if (!r.messageTs) return { kind: 'skipped' };
        return update(bot, r.approvalsChannelId, r.messageTs, approvalMessage(r, f), f, now);
      }
      const a = f.announcement;
      // A slash command's response_url cannot edit its earlier reply (replace_original posts a new
      // message), so a flow announced through one is only told at its end.
      if (a?.kind !== 'message') return { kind: 'skipped' };
      return update(bot, a.channelId, a.ts, writtenFor(typedOn(f), announcementMessage(f, now)), f, now);
    },

    async notify(f, now) {
      const bot = await speakingFor(root, f);
      if (!bot) return { kind: 'skipped' };
      announceChange(bot, flowChange(f));
      if (f.endReason !== 'ended') return { kind: 'skipped' };
      const timeZone = await bot.zoneOf(f.requesterId);
      const reopen =
        f.status.toUpperCase() !== 'COMPLETED' && f.origin !== 'approval'
          ? await reopenValue(bot, f).catch(() => undefined)
          : undefined;
      const thread = await threadOf(bot, f);
      // Told elsewhere (`where`: a direct message), its buttons answer where they are clicked.
      const askedIn = thread?.asked ? thread.ts : undefined;
      const body = (where?: string) =>
        writtenFor(
          typedOn(f),
          completionMessage(f, {
            timeZone,
            ...(reopen ? { reopen } : {}),
            ...(where ? { where } : askedIn ? { thread: askedIn } : {}),
          }),
        );
      const ways = waysToTell(bot, f, now, thread, body);
      for (const way of ways) {
        try {
          return await way.tell();
        } catch (e) {
          const later = tryAgainLater(
            e,
            f,
            now,
            { way: way.name },
            'could not tell the requester that their flow ended; trying again later',
          );
          if (later) return later;
          log.info(
            { flowId: f.flowId, way: way.name, err: errText(e) },
            'could not tell the end of a flow this way; trying the next',
          );
        }
      }
      log.error(
        { flowId: f.flowId, user: f.requesterId },
        'could not tell the requester that their flow ended; it is recorded as ended (/tsai flows, the Home)',
      );
      return { kind: 'skipped' };
    },
  };
}

/**
 * The bot as it speaks to the flow's workspace (its installation); undefined when the app was removed
 * from it since, and nothing about the flow can be shown there any more.
 */
async function speakingFor(root: Bot, f: TrackedFlow): Promise<Bot | undefined> {
  const bot = await root.forTeam(f.teamId ?? undefined);
  if (!bot)
    root.logger.info(
      { part: 'flow-tracking', flowId: f.flowId, team: f.teamId },
      'the app is no longer installed where this flow started; nothing shown',
    );
  return bot;
}

type Way = { name: string; tell: () => Promise<NotifyResult> };

/** How commands are typed where a flow was asked from: its notices quote them so. */
const typedOn = (f: TrackedFlow) =>
  f.origin === 'mention' || f.origin === 'direct-message' ? f.origin : undefined;

/**
 * The ways to tell the requester, best first: under the announcement (or the approval's card); through
 * the command's response_url when the bot could only announce it there (it may not post in that
 * channel), while that has uses and time left; else by direct message.
 */
function waysToTell(
  bot: Bot,
  f: TrackedFlow,
  now: number,
  thread: Thread | undefined,
  body: (where?: string) => MessageBody,
): Way[] {
  const ways: Way[] = [];
  const a = f.announcement;
  if (thread) ways.push({ name: 'thread', tell: () => postTold(bot, thread.channel, thread.ts, body()) });
  else if (
    a?.kind === 'response-url' &&
    now - a.issuedAt <= RESPONSE_URL_TTL_MS &&
    a.uses < RESPONSE_URL_USES
  )
    ways.push({
      name: 'response_url',
      tell: async () => {
        await sendOrPlain(bot, body(), (b) =>
          postToResponseUrl(a.url, { response_type: 'in_channel', replace_original: false, ...b }),
        );
        return { kind: 'done', announcement: { ...a, uses: a.uses + 1 } };
      },
    });
  ways.push({
    name: 'direct message',
    tell: () => postTold(bot, f.requesterId, undefined, body(`Started in <#${f.channelId}>`)),
  });
  return ways;
}

/** Posts the end notice in a channel (or a direct message), under `threadTs` when there is one. */
async function postTold(
  bot: Bot,
  channel: string,
  threadTs: string | undefined,
  msg: MessageBody,
): Promise<NotifyResult> {
  await sendOrPlain(bot, msg, (b) =>
    bot.slack.chat.postMessage({
      channel,
      ...(threadTs ? { thread_ts: threadTs } : {}),
      text: b.text,
      blocks: b.blocks as never,
    }),
  );
  return { kind: 'done' };
}

/** A thread the bot replies in; `asked`: the one the person asked in (not the bot's own message). */
type Thread = { channel: string; ts: string; asked: boolean };

/**
 * The thread to reply in: the one a live start or stop was asked from, else its request's card; the one
 * the announcement is a reply in (asked in a thread), else under the announcement the bot posted.
 */
async function threadOf(bot: Bot, f: TrackedFlow): Promise<Thread | undefined> {
  if (f.origin === 'approval' && f.approvalId) {
    const r = await bot.approvals.get(f.approvalId);
    if (r?.originThreadTs) return { channel: r.originChannelId, ts: r.originThreadTs, asked: true };
    return r?.messageTs ? { channel: r.approvalsChannelId, ts: r.messageTs, asked: false } : undefined;
  }
  const a = f.announcement;
  // A direct message as the announcement is a thread too; a response_url message has no ts to reply to.
  if (a?.kind !== 'message') return undefined;
  return a.threadTs
    ? { channel: a.channelId, ts: a.threadTs, asked: true }
    : { channel: a.channelId, ts: a.ts, asked: false };
}

/** "Reopen with my inputs" for a flow that did not complete: the form again, filled as it was asked. */
async function reopenValue(bot: Bot, f: TrackedFlow): Promise<string | undefined> {
  const args = commandArguments(f.asked);
  const kind = args && entryOfCommand(args.spec.id)?.form?.id;
  if (!args || !kind) return undefined;
  const a = f.announcement;
  return saveDraft(bot.store, bot.now(), {
    kind,
    userId: f.requesterId,
    channel: f.channelId,
    // Asked in a thread, the form reopened from there answers there again.
    ...(a?.kind === 'message' && a.threadTs ? { threadTs: a.threadTs } : {}),
    fields: fieldsFromCommand(kind, args.given),
  });
}

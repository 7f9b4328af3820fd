import { MODAL_KINDS, type ModalKind } from '../../core/forms/fields.js';
import { fieldsFromCommand } from '../../core/forms/prefill.js';
import { commandArguments } from '../../core/grammar/parse.js';
import type { FlowNotifier, NotifyResult } from '../../core/tracking/tracker.js';
import { errText } from '../../log.js';
import type { TrackedFlow } from '../../store/index.js';
import { approvalMessage } from '../approvals/card.js';
import type { Bot } from '../bot.js';
import { saveDraft } from '../forms/drafts.js';
import { flowChange, refreshHomes } from '../home/refresh.js';
import { postToResponseUrl } from '../respond.js';
import { announcementMessage, completionMessage } from './views.js';

/** A response_url takes 5 posts within 30 minutes (Slack); the last is kept for the flow's end. */
export const RESPONSE_URL_USES = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60_000;

/**
 * What a Web API error says about what to do next. A 429's wait gets up to half again on top, so that
 * the many messages one busy minute put off do not all come back in the same second.
 */
function slackFailure(e: unknown): { retryAfterMs?: number; error?: string } {
  const err = e as { code?: string; retryAfter?: number; data?: { error?: string } };
  if (err?.code === 'slack_webapi_rate_limited_error') {
    const base = Math.max(1, err.retryAfter ?? 1) * 1000;
    return { retryAfterMs: Math.round(base * (1 + Math.random() * 0.5)) };
  }
  return { error: err?.data?.error ?? (e instanceof Error ? e.message : String(e)) };
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
export function createFlowNotifier(bot: Bot): FlowNotifier {
  const log = bot.logger.child({ part: 'flow-tracking' });

  const update = async (
    channel: string,
    ts: string,
    body: { text: string; blocks: unknown[] },
    now: number,
  ) => {
    try {
      await bot.slack.chat.update({ channel, ts, text: body.text, blocks: body.blocks as never });
      return { kind: 'done' } satisfies NotifyResult;
    } catch (e) {
      const f = slackFailure(e);
      if (f.retryAfterMs) return { kind: 'later', notBefore: now + f.retryAfterMs } satisfies NotifyResult;
      log.warn({ channel, err: errText(e) }, 'could not update a flow announcement; the end is still told');
      return { kind: 'skipped' } satisfies NotifyResult;
    }
  };

  return {
    async show(f, now) {
      if (f.origin === 'approval' && f.approvalId) {
        const r = await bot.approvals.get(f.approvalId);
        if (!r?.messageTs) return { kind: 'skipped' };
        return update(r.approvalsChannelId, r.messageTs, approvalMessage(r, f), now);
      }
      const a = f.announcement;
      // A slash command's response_url cannot edit its earlier reply (replace_original posts a new
      // message), so a flow announced through one is only told at its end.
      if (a?.kind !== 'message') return { kind: 'skipped' };
      return update(a.channelId, a.ts, announcementMessage(f, now), now);
    },

    async notify(f, now) {
      refreshHomes(bot, flowChange(f));
      if (f.endReason !== 'ended') return { kind: 'skipped' };
      const timeZone = await bot.zoneOf(f.requesterId);
      const reopen =
        f.status.toUpperCase() !== 'COMPLETED' && f.origin !== 'approval'
          ? await reopenValue(bot, f).catch(() => undefined)
          : undefined;
      const thread = await threadOf(bot, f);
      const send = async (
        channel: string,
        threadTs: string | undefined,
        where?: string,
      ): Promise<NotifyResult> => {
        const body = completionMessage(f, {
          timeZone,
          ...(reopen ? { reopen } : {}),
          ...(where ? { where } : {}),
        });
        await bot.slack.chat.postMessage({
          channel,
          ...(threadTs ? { thread_ts: threadTs } : {}),
          text: body.text,
          blocks: body.blocks as never,
        });
        return { kind: 'done' };
      };
      const direct = () => send(f.requesterId, undefined, `Started in <#${f.channelId}>`);
      const a = f.announcement;
      if (
        !thread &&
        a?.kind === 'response-url' &&
        now - a.issuedAt <= RESPONSE_URL_TTL_MS &&
        a.uses < RESPONSE_URL_USES
      ) {
        // The bot may not post in that channel, but the command's response_url still may: the end goes there.
        try {
          const body = completionMessage(f, { timeZone, ...(reopen ? { reopen } : {}) });
          await postToResponseUrl(a.url, { response_type: 'in_channel', replace_original: false, ...body });
          return { kind: 'done', announcement: { ...a, uses: a.uses + 1 } };
        } catch (e) {
          log.info(
            { flowId: f.flowId, err: errText(e) },
            'the response_url did not take the end of the flow; sending a direct message',
          );
        }
      }
      try {
        return thread ? await send(thread.channel, thread.ts) : await direct();
      } catch (e) {
        const failure = slackFailure(e);
        if (failure.retryAfterMs) return { kind: 'later', notBefore: now + failure.retryAfterMs };
        if (!thread) {
          log.error(
            { flowId: f.flowId, err: errText(e) },
            'could not tell the requester that their flow ended',
          );
          return { kind: 'skipped' };
        }
        log.info(
          { flowId: f.flowId, err: errText(e) },
          'could not reply in the flow thread; sending a direct message',
        );
        try {
          return await direct();
        } catch (again) {
          const retry = slackFailure(again).retryAfterMs;
          if (retry) return { kind: 'later', notBefore: now + retry };
          log.error(
            { flowId: f.flowId, err: errText(again) },
            'could not tell the requester that their flow ended',
          );
          return { kind: 'skipped' };
        }
      }
    },
  };
}

/** The message to reply under: the approval request's card, or the announcement the bot posted. */
async function threadOf(bot: Bot, f: TrackedFlow): Promise<{ channel: string; ts: string } | undefined> {
  if (f.origin === 'approval' && f.approvalId) {
    const r = await bot.approvals.get(f.approvalId);
    return r?.messageTs ? { channel: r.approvalsChannelId, ts: r.messageTs } : undefined;
  }
  const a = f.announcement;
  // A direct message as the announcement is a thread too; a response_url message has no ts to reply to.
  return a?.kind === 'message' ? { channel: a.channelId, ts: a.ts } : undefined;
}

/** "Reopen with my inputs" for a flow that did not complete: the form again, filled as it was asked. */
async function reopenValue(bot: Bot, f: TrackedFlow): Promise<string | undefined> {
  const args = commandArguments(f.asked);
  const kind = args?.spec.id as ModalKind | undefined;
  if (!args || !kind || !MODAL_KINDS.includes(kind)) return undefined;
  return saveDraft(bot.store, bot.now(), {
    kind,
    userId: f.requesterId,
    channel: f.channelId,
    fields: fieldsFromCommand(kind, args.given),
  });
}

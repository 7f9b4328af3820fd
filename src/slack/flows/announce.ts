import type { FlowKey } from '../../core/records.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { isNotInChannel, tellInviteOnce } from '../invite-hint.js';
import { type Audience, sendOrPlain } from '../reply.js';
import { postToResponseUrl } from '../respond.js';
import type { MessageBody } from '../views/messages.js';
import { writtenFor } from '../views/typed-commands.js';

/**
 * Posts a created flow in the channel it was asked from (in the thread, when asked in one), where its
 * status can then be updated in place:
 * `chat.postMessage` first, because it gives the message's `ts`; when the bot may not post there (not a
 * member of a private channel, say), the response_url, which posts in the channel but gives no `ts` and
 * takes only 5 uses; else a direct message to the person. Tells the tracker where it went. False when
 * nothing worked. When the bot is not in the channel, the person also learns, once, how to invite it.
 * `flow` is the tenant's flow (its team and the service's ID).
 */
export async function announceFlow(
  bot: Bot,
  to: Audience,
  shown: MessageBody,
  flow: FlowKey,
): Promise<boolean> {
  const body = writtenFor(to.typedOn, shown);
  const log = bot.logger.child({ part: 'flow-tracking', flowId: flow.flowId });
  const tell = (a: Parameters<NonNullable<Bot['tracker']>['announced']>[1]) =>
    bot.tracker
      ?.announced(flow, a)
      .catch((e: unknown) => log.error({ err: errText(e) }, 'could not record where a flow was announced'));
  const post = async (channel: string, threadTs?: string) => {
    const r = await sendOrPlain(bot, body, (b) =>
      bot.slack.chat.postMessage({
        channel,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        text: b.text,
        blocks: b.blocks,
      }),
    );
    if (r.ts && r.channel)
      await tell({ kind: 'message', channelId: r.channel, ts: r.ts, ...(threadTs ? { threadTs } : {}) });
  };
  // Not a member: the person is told once that inviting the bot gives live status (invite-hint.ts).
  let notIn: string | undefined;
  if (to.channelId) {
    try {
      // Asked in a thread, the flow is announced in it and its end told there.
      await post(to.channelId, to.threadTs);
      return true;
    } catch (e) {
      if (isNotInChannel(e)) notIn = to.channelId;
      log.info(
        { channel: to.channelId, err: errText(e) },
        'could not post the flow in its channel; trying the response_url',
      );
    }
  }
  for (const url of to.responseUrls) {
    try {
      await sendOrPlain(bot, body, (b) =>
        postToResponseUrl(url, { response_type: 'in_channel', replace_original: false, ...b }),
      );
      const hinted =
        notIn !== undefined &&
        (await tellInviteOnce(bot, { userId: to.userId, channelId: notIn }, { kind: 'response-url', url }));
      await tell({ kind: 'response-url', url, issuedAt: Date.now(), uses: hinted ? 2 : 1 });
      return true;
    } catch (e) {
      log.info({ err: errText(e) }, 'the response_url did not take the flow announcement');
    }
  }
  try {
    await post(to.userId);
    if (notIn)
      await tellInviteOnce(bot, { userId: to.userId, channelId: notIn }, { kind: 'dm', channelId: notIn });
    return true;
  } catch (e) {
    log.warn({ err: errText(e) }, 'could not announce the flow anywhere');
    // The tracker holds the flow's end until it knows where the flow went: here, nowhere.
    await tell({ kind: 'none' });
    return false;
  }
}

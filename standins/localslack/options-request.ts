import { channelRef, interactionBase, type LocalSlackContext, userRef, viewOf } from './context.js';
import type { LocalSlack } from './local-slack-api.js';
import { isExternalSelect, minQueryLength, optionsOfAnswer, rememberOffered } from './selects.js';
import type { Delivery, OpenView } from './types.js';
import { optionsResponseProblems } from './validate.js';
import { type ElementRef, findElement } from './views.js';
import { viewPayload } from './webapi.js';

type Json = Record<string, unknown>;
type OptionsRequest = Parameters<LocalSlack['sendOptionsRequest']>[0];

interface SelectPlace {
  ov?: OpenView;
  ref?: ElementRef;
  /** The payload fields that say where the select is. */
  where: Json;
}

/** The type-ahead select the user types into: in a view, or in a message they see. */
function selectPlace(ctx: LocalSlackContext, user: string, r: OptionsRequest): SelectPlace {
  if (r.viewId) {
    const ov = viewOf(ctx, user, r.viewId);
    return {
      ov,
      ref: findElement(ov.view.blocks, r.actionId, r.blockId),
      where: { container: { type: 'view', view_id: ov.id }, view: viewPayload(ov) },
    };
  }
  if (!r.channel)
    throw new Error('local slack: an options request needs a viewId, or a channel and messageTs');
  const ch = channelRef(ctx, r.channel);
  const m = r.messageTs ? ctx.state.message(ch.id, r.messageTs) : undefined;
  if (!m || (m.ephemeralTo !== undefined && m.ephemeralTo !== user))
    throw new Error(`local slack: ${r.user} sees no message ${r.messageTs} in ${r.channel}`);
  return {
    ref: findElement(m.blocks, r.actionId, r.blockId),
    where: {
      container: {
        type: 'message',
        message_ts: m.ts,
        channel_id: ch.id,
        is_ephemeral: m.ephemeralTo !== undefined,
      },
      channel: { id: ch.id, name: ch.isIm ? 'directmessage' : ch.name },
    },
  };
}

/** The user types into a type-ahead select: Slack's block_suggestion, once the query is long enough. */
export async function sendOptionsRequest(ctx: LocalSlackContext, r: OptionsRequest): Promise<Delivery> {
  const u = userRef(ctx, r.user);
  const { ov, ref, where } = selectPlace(ctx, u.id, r);
  if (!ref || !isExternalSelect(ref.element))
    throw new Error(`local slack: no type-ahead select ${r.blockId}/${r.actionId} there`);
  if (r.value.length < minQueryLength(ref.element)) return { status: 0, body: '', delivered: false };
  const d = await ctx.bot.deliverPayload({
    ...interactionBase(ctx, 'block_suggestion', u),
    ...where,
    action_id: ref.actionId,
    block_id: ref.blockId,
    value: r.value,
  });
  if (d.status !== 200) return { ...d, options: [], errors: { _: 'the app did not answer with options' } };
  const problems = optionsResponseProblems(d.json);
  if (problems.length > 0) return { ...d, options: [], errors: { _: problems.join('; ') } };
  const options = optionsOfAnswer(d.json);
  if (ov) {
    rememberOffered(ov, ref, options);
    ctx.state.changed();
  }
  return { ...d, options };
}

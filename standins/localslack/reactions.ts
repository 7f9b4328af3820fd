import { type ApiContext, type ApiResult, conversation, fail, type Handler, str } from './api-context.js';
import type { LocalMessage } from './types.js';

/** Slack's limit of distinct reactions on one message. */
export const MAX_REACTIONS = 23;

/** An emoji's name as Slack takes it: lowercase, without colons (`white_check_mark`, `+1`, `skin-tone-2`). */
const NAME = /^[a-z0-9_+'-]{1,100}$/;

/**
 * The message a reaction call names, as the calling installation may react to it: a conversation it
 * sees (a private one it is not in does not exist for it; an archived one takes nothing), a message that
 * is there for everyone (an ephemeral one cannot be reacted to), and a name Slack knows the shape of.
 */
function target(a: Record<string, unknown>, ctx: ApiContext): { m: LocalMessage; name: string } | ApiResult {
  const ch = conversation(ctx, a.channel);
  if (!ch || (ch.isPrivate && !ctx.state.botIn(ch))) return fail('channel_not_found');
  if (ch.archived) return fail('is_archived');
  const ts = str(a.timestamp);
  const m = ts ? ctx.state.message(ch.id, ts) : undefined;
  if (!m || m.ephemeralTo !== undefined) return fail('message_not_found');
  const name = str(a.name);
  if (!name || !NAME.test(name)) return fail('invalid_name', ['the name is the emoji name without colons']);
  return { m, name };
}

/** `reactions.add` and `reactions.remove`, by the calling installation's bot user. */
export const REACTION_METHODS: Record<string, Handler> = {
  'reactions.add': (a, ctx) => {
    const t = target(a, ctx);
    if ('ok' in t) return t;
    const me = ctx.install.botUserId;
    const reactions = t.m.reactions ?? [];
    const r = reactions.find((x) => x.name === t.name);
    if (r?.users.includes(me)) return fail('already_reacted');
    if (!r && reactions.length >= MAX_REACTIONS) return fail('too_many_reactions');
    if (r) r.users.push(me);
    else t.m.reactions = [...reactions, { name: t.name, users: [me] }];
    ctx.state.changed();
    return { ok: true };
  },

  'reactions.remove': (a, ctx) => {
    const t = target(a, ctx);
    if ('ok' in t) return t;
    const me = ctx.install.botUserId;
    const r = t.m.reactions?.find((x) => x.name === t.name);
    if (!r?.users.includes(me)) return fail('no_reaction');
    r.users = r.users.filter((u) => u !== me);
    if (r.users.length === 0) t.m.reactions = t.m.reactions!.filter((x) => x !== r);
    if (t.m.reactions?.length === 0) delete t.m.reactions;
    ctx.state.changed();
    return { ok: true };
  },
};

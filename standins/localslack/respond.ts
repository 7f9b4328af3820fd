import { BOT_ID, BOT_USER_ID, type ResponseTarget, type SlackState } from './state.js';
import { validateMessage } from './validate.js';
import { assignIds } from './views.js';

type Json = Record<string, unknown>;
export const RESPONSE_URL_MAX_USES = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60 * 1000;

/**
 * Applies one POST to a response_url as Slack does: ephemeral by default, `in_channel` posts to the
 * channel (and reveals the user's slash command), `replace_original` / `delete_original` edit the message
 * that held the clicked element, `thread_ts` replies in a thread. A slash command's response_url has no
 * such message: `replace_original` there posts a new reply, as Slack does (the earlier reply stays).
 * The bot's channel membership does not matter. Returns the HTTP status and Slack's JSON answer.
 */
export function applyResponse(
  state: SlackState,
  target: ResponseTarget | undefined,
  body: unknown,
): { status: number; json: Json } {
  if (!target) return { status: 404, json: { ok: false, error: 'invalid_url' } };
  if (state.now() - target.issuedAt > RESPONSE_URL_TTL_MS)
    return { status: 404, json: { ok: false, error: 'expired_url' } };
  if (target.uses >= RESPONSE_URL_MAX_USES) return { status: 404, json: { ok: false, error: 'used_url' } };
  if (!body || typeof body !== 'object')
    return { status: 400, json: { ok: false, error: 'invalid_payload' } };
  const b = body as Json;
  const channel = target.channel;
  if (!channel) return { status: 404, json: { ok: false, error: 'channel_not_found' } };
  const truthy = (v: unknown) => v === true || v === 'true';
  const source = target.messageTs ? state.message(channel, target.messageTs) : undefined;

  if (truthy(b.delete_original)) {
    if (!source) return { status: 404, json: { ok: false, error: 'message_not_found' } };
    target.uses++;
    state.removeMessage(channel, source.ts);
    return { status: 200, json: { ok: true } };
  }
  const bad = validateMessage(b.text, b.blocks);
  if (bad)
    return {
      status: 400,
      json: { ok: false, error: bad.error, response_metadata: { messages: bad.messages } },
    };
  const text = String(b.text ?? '');
  const blocks = b.blocks as unknown[] | undefined;

  // A slash command's response_url has no message to replace: Slack posts the body as a new reply.
  if (truthy(b.replace_original) && target.messageTs) {
    if (!source) return { status: 404, json: { ok: false, error: 'message_not_found' } };
    target.uses++;
    source.text = text;
    source.blocks = assignIds(blocks);
    source.edits++;
    state.changed();
    return { status: 200, json: { ok: true } };
  }
  const inChannel = b.response_type === 'in_channel';
  target.uses++;
  if (inChannel && target.commandTs) {
    const cmd = state.message(channel, target.commandTs);
    if (cmd?.ephemeralTo !== undefined) cmd.ephemeralTo = undefined;
  }
  state.addMessage({
    channel,
    user: BOT_USER_ID,
    botId: BOT_ID,
    text,
    blocks,
    threadTs: typeof b.thread_ts === 'string' ? b.thread_ts : undefined,
    ephemeralTo: inChannel ? undefined : target.user,
    kind: 'message',
    via: 'response_url',
    ...(target.commandTs || target.messageTs ? { answers: target.commandTs ?? target.messageTs } : {}),
  });
  return { status: 200, json: { ok: true } };
}

import { SLACK_AUTH_ERRORS } from './readiness.js';
import { ResponseUrlError } from './respond.js';

/**
 * What a failed Slack call (Web API or response_url) says about what to do next:
 * - `rate-limited`: a 429; that one message (or method) may be tried again after `retryAfterMs`.
 * - `unavailable`: Slack failed (5xx, a network error, a timeout); the same call may work a little later.
 * - `auth`: the bot's token is refused; nothing needing it works until someone fixes it (readiness says so).
 * - `content`: Slack refused the message itself (`invalid_blocks`, `msg_too_long`, …); a shorter, plain
 *   version of it goes through.
 * - `place`: the conversation, message or response_url does not take it (`not_in_channel`, archived,
 *   gone, a used-up response_url): another way to reach the person is needed.
 * - `trigger`: a form could not open because its trigger_id expired or was used.
 * - `other`: anything else (a bug, most likely): logged, and the next way tried.
 */
export type SlackFailureKind =
  | 'rate-limited'
  | 'unavailable'
  | 'auth'
  | 'content'
  | 'place'
  | 'trigger'
  | 'other';

export interface SlackFailure {
  kind: SlackFailureKind;
  /** Slack's error code, or what failed (`http 503`, the network error). */
  error: string;
  /** A 429's Retry-After, in ms. */
  retryAfterMs?: number;
  /** `missing_scope`: the scope Slack says the call needs. */
  needed?: string;
}

const CONTENT = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_too_long',
  'msg_blocks_too_long',
  'no_text',
  'too_many_attachments',
  'view_too_large',
]);
const PLACE = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'is_inactive',
  'message_not_found',
  'cant_update_message',
  'edit_window_closed',
  'thread_not_found',
  'restricted_action',
  'user_not_in_channel',
  'cannot_dm_bot',
  'expired_url',
  'used_url',
  'invalid_url',
]);
const TRIGGER = new Set([
  'expired_trigger_id',
  'trigger_expired',
  'exchanged_trigger_id',
  'trigger_exchanged',
  'invalid_trigger_id',
]);
const UNAVAILABLE = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

function ofCode(error: string): SlackFailureKind {
  if (SLACK_AUTH_ERRORS.includes(error) || error === 'not_authed') return 'auth';
  if (CONTENT.has(error)) return 'content';
  if (PLACE.has(error)) return 'place';
  if (TRIGGER.has(error)) return 'trigger';
  if (UNAVAILABLE.has(error)) return 'unavailable';
  return 'other';
}

/** Reads a WebClient error or a `ResponseUrlError`. */
export function slackFailure(e: unknown): SlackFailure {
  if (e instanceof ResponseUrlError) {
    if (e.status === 429)
      return {
        kind: 'rate-limited',
        error: e.error ?? 'ratelimited',
        retryAfterMs: e.retryAfterMs ?? 1000,
      };
    if (e.status >= 500) return { kind: 'unavailable', error: e.error ?? `http ${e.status}` };
    const kind = e.error ? ofCode(e.error) : 'place';
    // Whatever else a response_url refuses, it will not take this post: the next way is tried.
    return { kind: kind === 'other' ? 'place' : kind, error: e.error ?? `http ${e.status}` };
  }
  const err = (e ?? {}) as {
    code?: string;
    retryAfter?: number;
    statusCode?: number;
    data?: { error?: unknown; needed?: unknown };
    message?: string;
  };
  if (err.code === 'slack_webapi_rate_limited_error')
    return {
      kind: 'rate-limited',
      error: 'ratelimited',
      retryAfterMs: Math.max(1, err.retryAfter ?? 1) * 1000,
    };
  if (err.code === 'slack_webapi_http_error')
    return { kind: 'unavailable', error: `http ${err.statusCode ?? '?'}` };
  if (err.code === 'slack_webapi_request_error')
    return { kind: 'unavailable', error: err.message ?? 'request error' };
  const code = err.data?.error;
  const needed = err.data?.needed;
  if (typeof code === 'string')
    return { kind: ofCode(code), error: code, ...(typeof needed === 'string' ? { needed } : {}) };
  return { kind: 'other', error: e instanceof Error ? e.message : String(e) };
}

/** What Slack's refusals mean to a person, and the fix: one clause each, never the code itself. */
const SAY: Record<string, string> = {
  not_in_channel: 'the bot is not in that channel: invite it with `/invite @tsai`',
  channel_not_found:
    'Slack does not show the bot that channel (a private channel it was not invited to, or a wrong channel setting): invite it with `/invite @tsai`, or check the channel setting',
  is_archived: 'that channel is archived: unarchive it, or choose another channel',
  restricted_action: "this workspace's settings do not let the bot post there: ask a workspace admin",
  user_not_in_channel: 'that person is not in the channel: invite them, or use another channel',
  is_inactive: 'that conversation is closed: use another channel',
  cannot_dm_bot: 'Slack does not let the bot message that account',
  message_not_found: 'the message it belonged to has been deleted',
  thread_not_found: 'the message it belonged to has been deleted',
  cant_update_message: 'Slack no longer lets the bot change that message',
  edit_window_closed: 'Slack no longer lets the bot change that message',
  expired_url: 'Slack allows only a few replies to a command within 30 minutes, and those are used up',
  used_url: 'Slack allows only a few replies to a command within 30 minutes, and those are used up',
  invalid_url: 'Slack allows only a few replies to a command within 30 minutes, and those are used up',
};

/** One clause for a person on why Slack did not take something, with what to do about it. */
export function slackFailureText(f: SlackFailure): string {
  switch (f.kind) {
    case 'rate-limited':
      return 'Slack asked the bot to slow down';
    case 'unavailable':
      return 'Slack did not answer';
    case 'auth':
      return "Slack refuses the bot's token (the app was removed or its token revoked): tell your Slack admins; whoever runs the bot has to reinstall it or give it a new token";
    case 'trigger':
      return 'Slack gives a form only 3 seconds to open, and the bot was slower';
    case 'content':
      return 'Slack refused the message as too long or malformed, which is a bug in the bot (it is in its log)';
  }
  if (f.error === 'missing_scope') {
    const scope =
      f.needed && /^[a-z:.,_-]+$/.test(f.needed) ? `the \`${f.needed}\` permission` : 'a permission';
    return `the bot lacks ${scope} in Slack: whoever runs it has to add it to the app's manifest (manifest.yml) and reinstall the app`;
  }
  return SAY[f.error] ?? 'Slack refused it for a reason the bot does not know (it is in its log)';
}

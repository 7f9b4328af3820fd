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
    data?: { error?: unknown };
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
  if (typeof code === 'string') return { kind: ofCode(code), error: code };
  return { kind: 'other', error: e instanceof Error ? e.message : String(e) };
}

/** One clause for a person on why Slack did not take something. */
export function slackFailureText(f: SlackFailure): string {
  switch (f.kind) {
    case 'rate-limited':
      return 'Slack asked the bot to slow down';
    case 'unavailable':
      return 'Slack did not answer';
    case 'auth':
      return `Slack refuses the bot's token (${f.error}): whoever runs the bot has to reinstall it or give it a new token`;
    case 'trigger':
      return 'Slack gives a form only 3 seconds to open, and the bot was slower';
    default:
      return `Slack answered ${f.error}`;
  }
}

import type { HttpMethod } from '../wire/call.js';
/** Every kind of failure the client tells apart (docs/api-and-emulator.md has a row for each). */
export const SERVICE_ERROR_KINDS = [
  'invalid-request',
  'bad-id',
  'http',
  'network',
  'timeout',
  'outcome-unknown',
  /** The client's own queue was full or the wait for a connection ran out: nothing was sent. */
  'busy',
  /** A read or a change was answered with success, but the answer cannot be read (not JSON, wrong shape). */
  'bad-response',
] as const;
export type ServiceErrorKind = (typeof SERVICE_ERROR_KINDS)[number];

/** The one error type of the client. `userMessage` is a single sentence, safe to show in Slack. */
export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly status?: number;
  readonly serviceMessage?: string;
  readonly userMessage: string;
  /** How long the service asked to wait before the next request (Retry-After), in ms, when it said so. */
  readonly retryAfterMs?: number;
  /** `retryAfterMs` in whole seconds, rounded up. */
  readonly retryAfterSeconds?: number;

  constructor(
    kind: ServiceErrorKind,
    userMessage: string,
    extra: { status?: number; serviceMessage?: string; retryAfterMs?: number } = {},
  ) {
    super(userMessage);
    this.name = 'ServiceError';
    this.kind = kind;
    this.userMessage = userMessage;
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.serviceMessage !== undefined) this.serviceMessage = extra.serviceMessage;
    if (extra.retryAfterMs !== undefined) {
      this.retryAfterMs = extra.retryAfterMs;
      this.retryAfterSeconds = Math.ceil(extra.retryAfterMs / 1000);
    }
  }
}

/** A PUT and a DELETE are idempotent changes: repeating one is safe. */
export type Method = HttpMethod;

export function isIdempotentChange(method: Method | undefined): boolean {
  return method === 'PUT' || method === 'DELETE';
}

/**
 * Human sentence for an HTTP error status. `what` names the resource, e.g. "workspace 1353…". For a POST
 * it says whether anything was created, as far as the status tells.
 */
export function httpUserMessage(
  status: number,
  what: string,
  serviceMessage: string | undefined,
  context: { method?: Method; retryAfterMs?: number } = {},
): string {
  const said = serviceMessage ? `: ${trimForDisplay(serviceMessage)}` : '';
  const creating = context.method === 'POST';
  const changing = isIdempotentChange(context.method);
  /** What a refusal that processed nothing means for a change. */
  const untouched = creating ? ', so nothing was created' : changing ? ', so nothing was changed' : '';
  /** What the service's own failure means for it, as far as its answer tells. */
  const failed = creating
    ? ', so it should not have created anything'
    : changing
      ? ', so the change should not have been made'
      : '';
  const wait =
    context.retryAfterMs !== undefined
      ? `in about ${Math.max(1, Math.ceil(context.retryAfterMs / 1000))} s`
      : '';
  if (status === 401)
    return "The service rejected the bot's access token (invalid or expired); generate a new token in the service's user interface and update the bot's configuration.";
  if (status === 403) return `Your role in the service lacks permission for this operation${said}.`;
  if (status === 404) return `The service could not find ${what}${said}.`;
  if (status === 400) return `The service rejected the request${said}.`;
  // 429 and 503 mean the request was not processed (RFC 9110), so a refused POST created nothing.
  if (status === 429)
    return `The service is limiting the request rate${untouched}; try again ${wait || 'in a minute'}.`;
  if (status === 503)
    return `The service is unavailable right now (HTTP 503)${untouched}; try again ${wait || 'later'}${said}.`;
  // A gateway's answer: the service behind it may have made a change (a POST's is outcome-unknown instead).
  if (status === 502 || status === 504)
    return changing
      ? `The service failed to answer through its gateway (HTTP ${status}), so the change may or may not have been made; repeating it is safe${said}.`
      : `The service failed to answer through its gateway (HTTP ${status}); try again later${said}.`;
  if (status >= 500)
    return `The service failed to handle the request (HTTP ${status})${failed}; try again later${said}.`;
  return `The service refused the request (HTTP ${status})${said}.`;
}

/** The sentence for a POST that may have been carried out although no usable answer says so. */
export const CHECK_ACTIVITY_VIEW =
  "check the service's Activity view to see whether it was created before trying again";

export function trimForDisplay(text: string, max = 300): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strip control characters before display
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function redact(text: string, secret: string): string {
  return secret.length > 0 ? text.split(secret).join('[redacted]') : text;
}

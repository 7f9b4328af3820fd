export type ServiceErrorKind =
  | 'invalid-request'
  | 'bad-id'
  | 'http'
  | 'network'
  | 'timeout'
  | 'outcome-unknown'
  /** The client's own queue was full or the wait for a connection ran out: nothing was sent. */
  | 'busy';

/** The one error type of the client. `userMessage` is a single sentence, safe to show in Slack. */
export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly status?: number;
  readonly serviceMessage?: string;
  readonly userMessage: string;
  /** Seconds the service asked to wait (429/503 Retry-After), when it said so. */
  readonly retryAfterSeconds?: number;

  constructor(
    kind: ServiceErrorKind,
    userMessage: string,
    extra: { status?: number; serviceMessage?: string; retryAfterSeconds?: number } = {},
  ) {
    super(userMessage);
    this.name = 'ServiceError';
    this.kind = kind;
    this.userMessage = userMessage;
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.serviceMessage !== undefined) this.serviceMessage = extra.serviceMessage;
    if (extra.retryAfterSeconds !== undefined) this.retryAfterSeconds = extra.retryAfterSeconds;
  }
}

/** Human sentence for an HTTP error status. `what` names the resource, e.g. "workspace 1353…". */
export function httpUserMessage(status: number, what: string, serviceMessage: string | undefined): string {
  const said = serviceMessage ? `: ${trimForDisplay(serviceMessage)}` : '';
  if (status === 401)
    return "The service rejected the bot's access token (invalid or expired); generate a new token in the service's user interface and update the bot's configuration.";
  if (status === 403)
    return `Your role in the service (Owner / Manager / User) lacks permission for this operation${said}.`;
  if (status === 404) return `The service could not find ${what}${said}.`;
  if (status === 400) return `The service rejected the request${said}.`;
  if (status === 429) return 'The service is limiting the request rate; try again in a minute.';
  if (status >= 500)
    return `The service failed to handle the request (HTTP ${status}); try again later${said}.`;
  return `The service refused the request (HTTP ${status})${said}.`;
}

export function trimForDisplay(text: string, max = 300): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strip control characters before display
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function redact(text: string, secret: string): string {
  return secret.length > 0 ? text.split(secret).join('[redacted]') : text;
}

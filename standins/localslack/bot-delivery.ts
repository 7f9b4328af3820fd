import type { SignedPostOptions } from './local-slack-api.js';
import { nowSeconds, signSlackRequest } from './signing.js';
import type { Delivery } from './types.js';

/** Signed POSTs to the bot's events endpoint, as Slack sends them, waiting at most for Slack's ack deadline. */
export class BotDelivery {
  constructor(
    private readonly signingSecret: string,
    private readonly ackTimeoutMs: number,
    private endpoint: string | undefined,
  ) {}

  setEndpoint(url: string): void {
    this.endpoint = url;
  }

  hasEndpoint(): boolean {
    return this.endpoint !== undefined;
  }

  /** The path of the bot's endpoint, where commands, interactions and events all go. */
  endpointPath(): string {
    return new URL(this.endpoint ?? 'http://x/').pathname;
  }

  /** An interaction payload, form-encoded as Slack sends it. */
  deliverPayload(payload: Record<string, unknown>): Promise<Delivery> {
    return this.post(
      this.endpointPath(),
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
    );
  }

  async post(path: string, rawBody: string, so: SignedPostOptions = {}): Promise<Delivery> {
    if (!this.endpoint)
      throw new Error('local slack: no bot endpoint set (startLocalSlack({botEndpoint}) or setBotEndpoint)');
    const target = new URL(path, this.endpoint);
    try {
      const r = await fetch(target, {
        method: 'POST',
        headers: this.headers(rawBody, so),
        body: rawBody,
        signal: AbortSignal.timeout(this.ackTimeoutMs),
      });
      const body = await r.text();
      return { status: r.status, body, json: parseOrUndefined(body), delivered: true };
    } catch (err) {
      const timeout = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      return { status: 0, body: timeout ? 'operation_timeout' : 'dispatch_failed', delivered: false };
    }
  }

  private headers(rawBody: string, so: SignedPostOptions): Record<string, string> {
    const ts = so.timestamp === undefined ? nowSeconds() : so.timestamp;
    const headers: Record<string, string> = {
      'content-type': so.contentType ?? 'application/x-www-form-urlencoded',
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
      ...so.headers,
    };
    if (ts !== null) headers['x-slack-request-timestamp'] = String(ts);
    const sig =
      so.signature === undefined ? signSlackRequest(this.signingSecret, rawBody, ts ?? 0) : so.signature;
    if (sig !== null) headers['x-slack-signature'] = sig;
    return headers;
  }
}

function parseOrUndefined(body: string): unknown {
  if (!body) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

import { createHmac } from 'node:crypto';

/** Slack's request signature: `v0=` + hex HMAC-SHA256(secret, `v0:${ts}:${rawBody}`). */
export function signSlackRequest(secret: string, rawBody: string, timestampSeconds: number): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestampSeconds}:${rawBody}`).digest('hex')}`;
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

import { createHmac, type Hmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** How far a request's timestamp may be from now, either way, as Slack asks. */
export const SIGNATURE_WINDOW_SECONDS = 5 * 60;

const SIGNATURE = /^v0=([0-9a-f]{64})$/i;
const TIMESTAMP = /^\d{1,12}$/;

export interface SignatureHeaders {
  timestamp: string;
  /** The HMAC the request claims, as bytes. */
  claimed: Buffer;
}

/**
 * The request's signature headers when both are there, well formed, and the timestamp is within the
 * window either side of now (a future one is refused as a stale one is); otherwise undefined. Costs no
 * body byte, so a request without a signature is refused before its body is read.
 */
export function signatureHeaders(headers: IncomingHttpHeaders, nowMs: number): SignatureHeaders | undefined {
  const signature = headers['x-slack-signature'];
  const timestamp = headers['x-slack-request-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string' || !TIMESTAMP.test(timestamp)) {
    return undefined;
  }
  const hex = SIGNATURE.exec(signature)?.[1];
  if (hex === undefined) return undefined;
  if (Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) return undefined;
  return { timestamp, claimed: Buffer.from(hex, 'hex') };
}

/** Slack's HMAC-SHA256 over `v0:{timestamp}:{raw body}`, to be fed the body as it streams in. */
export function startSignature(signingSecret: string, timestamp: string): Hmac {
  return createHmac('sha256', signingSecret).update(`v0:${timestamp}:`);
}

/** Whether the HMAC fed the whole body is the one claimed, compared in constant time. */
export function signatureMatches(hmac: Hmac, claimed: Buffer): boolean {
  const ours = hmac.digest();
  return ours.length === claimed.length && timingSafeEqual(ours, claimed);
}

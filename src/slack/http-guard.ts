import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Logger } from '../log.js';
import { BODIES_IN_FLIGHT_LIMIT_BYTES, BODY_LIMIT_BYTES } from './http/limits.js';
import { type Payload, readPayload, replayKey, routable, UNKEYED_RETRY } from './http/payload.js';
import { BodyBudget, readBody } from './http/read-body.js';
import { batchedMarks, type MarkSeen } from './http/seen-marks.js';
import {
  SIGNATURE_WINDOW_SECONDS,
  signatureHeaders,
  signatureMatches,
  startSignature,
} from './http/signature.js';

export interface GuardOptions {
  signingSecret: string;
  /**
   * Marks distinct keys until `expiresAt`; answers those marked for the first time (or after their mark
   * expired), across every replica sharing the store.
   */
  markSeen: MarkSeen;
  /** Writes the marks not yet in the store (a stop); see `processMarks`. */
  flushSeen?(): Promise<void>;
  /** Forgets keys expired by `now`. */
  pruneSeen(now: number): Promise<unknown>;
  logger: Logger;
  bodyLimitBytes?: number;
}

/** A replay passes the signature check for the window either side of its timestamp; a minute to spare. */
const SEEN_FOR_MS = (2 * SIGNATURE_WINDOW_SECONDS + 60) * 1000;
const PRUNE_EVERY_MS = 60_000;
/** Slack's ssl_check is a short unsigned form; nothing longer is read without a signature. */
const SSL_CHECK_MAX_BYTES = 256;

/** A request whose signature was checked, parsed once, and not seen before. */
export type Verified = (req: IncomingMessage, res: ServerResponse, payload: Payload) => void;

/**
 * Takes every POST to the Slack endpoint, so that nothing unsigned is parsed and nothing signed is acted on
 * twice:
 * - no signature, a malformed one, or a timestamp more than 5 minutes from now either way: 401 before a
 *   byte of the body is read;
 * - the body is counted as it streams in and fed to the HMAC; past the limit reading stops and the answer
 *   is 413 (503 when all the bodies in flight together reach their budget); a wrong HMAC: 401;
 * - a verified body Bolt would crash on or could not route: 400;
 * - an event Slack delivers again, or a command or interaction replayed: 200, empty, and nothing done.
 * Everything else goes to `verified` with the payload as read, so nothing checks or parses it again.
 */
export function guardEvents(
  o: GuardOptions,
  verified: Verified,
): (req: IncomingMessage, res: ServerResponse) => void {
  const budget = new BodyBudget(BODIES_IN_FLIGHT_LIMIT_BYTES);
  const refused = refusalCounter(o.logger);
  let prunedAt = 0;
  const mark = batchedMarks((keys, now) => {
    if (now - prunedAt > PRUNE_EVERY_MS) {
      prunedAt = now;
      o.pruneSeen(now).catch(() => undefined);
    }
    return o.markSeen(keys, now, now + SEEN_FOR_MS);
  });
  const firstTime = async (key: string): Promise<boolean> => {
    try {
      return await mark(key);
    } catch (err) {
      // Acting is worth more than refusing everything while the store is out; the outage is logged.
      o.logger.warn({ err: (err as Error).message }, 'could not check a request for a repeat; acting on it');
      return true;
    }
  };
  const guard = async (req: IncomingMessage, res: ServerResponse) => {
    const headers = signatureHeaders(req.headers, Date.now());
    if (!headers) {
      if (await isSslCheck(req, budget)) return void res.writeHead(200).end();
      refused('unsigned');
      return refuse(req, res, 401);
    }
    const limit = o.bodyLimitBytes ?? BODY_LIMIT_BYTES;
    if (Number(req.headers['content-length']) > limit) {
      refused('too large');
      return refuse(req, res, 413);
    }
    const hmac = startSignature(o.signingSecret, headers.timestamp);
    const { read, release } = await readBody(req, limit, budget, (chunk) => hmac.update(chunk));
    try {
      if (read.kind !== 'read') {
        refused(read.kind);
        return refuse(req, res, read.kind === 'too-large' ? 413 : read.kind === 'busy' ? 503 : 400);
      }
      if (!signatureMatches(hmac, headers.claimed)) {
        refused('bad signature');
        return refuse(req, res, 401);
      }
      const payload = readPayload(read.raw, req.headers['content-type']);
      if (!routable(payload)) return void res.writeHead(400).end();
      const key = replayKey(payload, read.raw, req.headers);
      if (key !== undefined && (key === UNKEYED_RETRY || !(await firstTime(key)))) {
        o.logger.info(
          { retry: req.headers['x-slack-retry-num'] !== undefined },
          'a Slack request seen before (a retry or a replay); acknowledged, nothing done',
        );
        return void res.writeHead(200).end();
      }
      verified(req, res, payload);
    } finally {
      release();
    }
  };
  return (req, res) => {
    guard(req, res).catch((err: unknown) => {
      o.logger.error({ err: (err as Error).message }, 'the request guard failed');
      if (!res.headersSent) refuse(req, res, 500);
    });
  };
}

/**
 * Answers with `status` and closes the connection. A body not read to its end is not drained: the socket
 * is closed once the answer is out, so a refused upload costs no more than what already arrived.
 */
function refuse(req: IncomingMessage, res: ServerResponse, status: number): void {
  res.writeHead(status, { connection: 'close' }).end();
  if (!req.complete) res.once('finish', () => req.socket.destroySoon());
}

/** Slack's unsigned `ssl_check=1` (Bolt answers it 200 too); read only when it is short and says it is a form. */
async function isSslCheck(req: IncomingMessage, budget: BodyBudget): Promise<boolean> {
  const length = Number(req.headers['content-length']);
  if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') return false;
  if (!(length > 0 && length <= SSL_CHECK_MAX_BYTES)) return false;
  const { read, release } = await readBody(req, SSL_CHECK_MAX_BYTES, budget, () => undefined);
  release();
  return read.kind === 'read' && parseQuery(read.raw.toString()).ssl_check === '1';
}

/** Counts refusals by reason; logs the counts so far at most once a minute, so a flood is seen, not echoed. */
function refusalCounter(logger: Logger): (reason: string) => void {
  const counts: Record<string, number> = {};
  let loggedAt = 0;
  return (reason) => {
    counts[reason] = (counts[reason] ?? 0) + 1;
    const now = Date.now();
    if (now - loggedAt < 60_000) return;
    loggedAt = now;
    logger.warn({ refused: { ...counts } }, 'requests to the Slack endpoint refused (counts since start)');
  };
}

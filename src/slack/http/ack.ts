import type { ServerResponse } from 'node:http';
import type { Logger } from '../../log.js';
import { ReceiverMultipleAckError } from '../bolt.js';
import { jsonOf } from './ack-body.js';

/** Slack waits 3 seconds for an answer; a listener that has not acknowledged by then never will in time. */
export const UNACKED_AFTER_MS = 3_001;

/**
 * The `ack` Bolt hands a listener for one HTTP request: the first call answers 200 (a string as it is, an
 * object as JSON, nothing as an empty body), a second one throws as Bolt's own does. A request nobody
 * acknowledges within Slack's 3 seconds is answered 404 and logged, as Bolt's receiver does.
 */
export function httpAck(res: ServerResponse, logger: Logger): (body?: unknown) => Promise<void> {
  let acked = false;
  const timer = setTimeout(() => {
    if (acked || res.headersSent) return;
    logger.error('a Slack request was not acknowledged within 3 seconds; answered 404');
    res.writeHead(404).end();
  }, UNACKED_AFTER_MS);
  return async (body) => {
    if (acked) throw new ReceiverMultipleAckError();
    acked = true;
    clearTimeout(timer);
    if (res.headersSent) return;
    if (!body) res.writeHead(200).end();
    else if (typeof body === 'string') res.writeHead(200).end(body);
    else res.writeHead(200, { 'content-type': 'application/json' }).end(jsonOf(body as object));
  };
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';

/** Bolt's own limit for a request body (its HTTPReceiver's default). */
export const BODY_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * Bolt's HTTP receiver reads a request's body, parses it, and then reads fields of what it parsed outside
 * any error handler: a signed body whose JSON is not an object (`payload=null`) throws there, so the request
 * is never answered and the rejection is unhandled, which ends a Node process. An interaction without a
 * user, an action without an action_id or a submitted view without a callback_id (Slack always sends them)
 * makes Bolt fail inside (a 500, or an error from its matching); one of a type Bolt does not know is never
 * answered. This reads the body first and answers 400 to all of those; every other request goes to Bolt
 * unchanged, with its body already read (Bolt takes a body that was read as it is), so signatures, limits
 * and answers stay Bolt's. (A request Bolt routes but no listener matches is answered by `answerUnrouted`.)
 */
export function guardEventBodies(server: Server, endpoint: string): void {
  const bolt = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    const toBolt = () => {
      for (const l of bolt) l(req, res);
    };
    if (req.method !== 'POST' || path !== endpoint) return toBolt();
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > BODY_LIMIT_BYTES) tooLarge = true;
      else chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (tooLarge) return void res.writeHead(413).end();
      const raw = Buffer.concat(chunks);
      if (!isObjectOrUnreadable(raw, req.headers['content-type'])) return void res.writeHead(400).end();
      (req as IncomingMessage & { rawBody: Buffer }).rawBody = raw;
      toBolt();
    });
  });
}

/**
 * False when the body parses, as Bolt parses it, to something that is not a JSON object, or to a request
 * Bolt cannot route: an interaction that lacks what Bolt routes it by or is of no type Bolt knows (Bolt
 * would leave it unanswered until its 3-second timeout), or an Events API callback without its event.
 */
function isObjectOrUnreadable(raw: Buffer, contentType: string | undefined): boolean {
  let text = raw.toString();
  let interactive = false;
  if (contentType === 'application/x-www-form-urlencoded') {
    const form = parseQuery(text);
    const payload = form.payload;
    // A slash command (or Slack's ssl_check) is the form itself.
    if (typeof payload !== 'string') return typeof form.command === 'string' || form.ssl_check === '1';
    text = payload;
    interactive = true;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return true; // Bolt answers 400 to what it cannot parse.
  }
  if (!isRecord(parsed)) return false;
  if (!interactive) return parsed.type !== 'event_callback' || isRecord(parsed.event);
  // What Bolt routes an interaction by, and reads without checking: who, which action, which view.
  const { user, actions, view } = parsed;
  if (!isRecord(user) || typeof user.id !== 'string') return false;
  const actionsOk =
    actions === undefined ||
    (Array.isArray(actions) && actions.every((a) => isRecord(a) && typeof a.action_id === 'string'));
  // Bolt routes view submissions and closures by callback_id; any other interaction may come from a view
  // that has none (a Home tab), so there only its shape matters.
  const routedByView = parsed.type === 'view_submission' || parsed.type === 'view_closed';
  const viewOk = routedByView
    ? isRecord(view) && typeof view.callback_id === 'string'
    : view === undefined || isRecord(view);
  const shortcut = parsed.type === 'shortcut' || parsed.type === 'message_action';
  const typed =
    routedByView ||
    shortcut ||
    Array.isArray(actions) ||
    parsed.type === 'block_suggestion' ||
    parsed.type === 'dialog_submission' ||
    parsed.name !== undefined;
  return typed && actionsOk && viewOk && (!shortcut || typeof parsed.callback_id === 'string');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

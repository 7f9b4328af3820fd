import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseQuery } from 'node:querystring';

/** A verified body read as Bolt reads it: a form (a slash command), an interaction's payload, or JSON. */
export type Payload =
  | { kind: 'command'; form: Record<string, unknown> }
  | { kind: 'interaction'; value: unknown }
  | { kind: 'json'; value: unknown }
  /** Not parseable: Bolt answers 400 itself. */
  | { kind: 'unreadable' };

export function readPayload(raw: Buffer, contentType: string | undefined): Payload {
  let text = raw.toString();
  let interactive = false;
  if (contentType === 'application/x-www-form-urlencoded') {
    const form = parseQuery(text);
    const payload = form.payload;
    if (typeof payload !== 'string') return { kind: 'command', form };
    text = payload;
    interactive = true;
  }
  try {
    const value: unknown = JSON.parse(text);
    return interactive ? { kind: 'interaction', value } : { kind: 'json', value };
  } catch {
    return { kind: 'unreadable' };
  }
}

/**
 * False when Bolt would crash on the payload or leave it unanswered: something that is not a JSON object,
 * an interaction that lacks what Bolt routes it by or is of no type Bolt knows, a form that is neither a
 * slash command nor Slack's ssl_check, or an Events API callback without its event.
 */
export function routable(p: Payload): boolean {
  if (p.kind === 'unreadable') return true; // Bolt answers 400 to what it cannot parse.
  if (p.kind === 'command') return typeof p.form.command === 'string' || p.form.ssl_check === '1';
  const parsed = p.value;
  if (!isRecord(parsed)) return false;
  if (p.kind === 'json') return parsed.type !== 'event_callback' || isRecord(parsed.event);
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

/** A repeat Slack itself announces, with nothing to tell it from the first delivery. */
export const UNKEYED_RETRY = Symbol('unkeyed retry');

/**
 * What makes a verified request the same as one already acted on, or undefined when it acts on nothing
 * that could happen twice (a type-ahead, a closed view, Slack's url_verification).
 * - An event: its `event_id`, which Slack's retries (`X-Slack-Retry-Num`) keep. A retry without one is
 *   `UNKEYED_RETRY`.
 * - A command or an interaction: a digest of its bytes. Every invocation carries its own `trigger_id`, so
 *   two invocations never share a key, while a replay of a captured request, which must be byte for byte
 *   the same to pass the signature, always does.
 */
export function replayKey(
  p: Payload,
  raw: Buffer,
  headers: IncomingHttpHeaders,
): string | typeof UNKEYED_RETRY | undefined {
  if (p.kind === 'json') {
    const value = isRecord(p.value) ? p.value : {};
    const id = value.event_id;
    if (typeof id === 'string' && id.length > 0 && id.length <= 100) return `event:${id}`;
    return headers['x-slack-retry-num'] === undefined ? undefined : UNKEYED_RETRY;
  }
  if (p.kind === 'unreadable') return undefined;
  const trigger =
    p.kind === 'command' ? p.form.trigger_id : isRecord(p.value) ? p.value.trigger_id : undefined;
  if (typeof trigger !== 'string') return undefined;
  return `body:${createHash('sha256').update(raw).digest('hex')}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

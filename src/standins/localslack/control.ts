import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalSlack } from './local-slack.js';

/**
 * A small JSON control API on the stand-in's own port, so a browser UI can play the user:
 *   GET  /_local/snapshot?viewer=U…   what that user sees (LocalSlackSnapshot)
 *   GET  /_local/events               Server-Sent Events, `data: {"version":n}` on every change
 *   POST /_local/<action>             command | click | view-action | type | submit | close-view | shortcut | options | message
 * POST bodies are the JSON arguments of the matching LocalSlack method; answers are its result
 * (a Delivery) or `{ error }` with status 400 when the arguments name no such user, view or message.
 */
export async function handleControl(
  slack: LocalSlack,
  req: IncomingMessage,
  url: URL,
  raw: string,
  res: ServerResponse,
): Promise<void> {
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body ?? null));
  };
  const action = url.pathname.slice('/_local/'.length);
  if (req.method === 'GET' && action === 'snapshot') {
    return send(200, slack.snapshot(url.searchParams.get('viewer') ?? undefined));
  }
  if (req.method === 'GET' && action === 'events') {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(`data: ${JSON.stringify({ version: slack.state.version })}\n\n`);
    const off = slack.on('change', (version) => res.write(`data: ${JSON.stringify({ version })}\n\n`));
    req.on('close', off);
    return;
  }
  if (req.method !== 'POST') return send(404, { error: 'not_found' });
  let args: never;
  try {
    args = JSON.parse(raw || '{}') as never;
  } catch {
    return send(400, { error: 'the body must be JSON' });
  }
  const actions: Record<string, (a: never) => unknown> = {
    command: (a) => slack.sendCommand(a),
    click: (a) => slack.clickButton(a),
    'view-action': (a) => slack.sendViewAction(a),
    type: (a) => slack.typeIntoView(a),
    submit: (a) => slack.submitView(a),
    'close-view': (a) => slack.closeView(a),
    shortcut: (a) => slack.sendShortcut(a),
    options: (a) => slack.sendOptionsRequest(a),
    message: (a) => slack.postUserMessage(a),
  };
  const run = actions[action];
  if (!run) return send(404, { error: `unknown control action "${action}"`, actions: Object.keys(actions) });
  try {
    send(200, (await run(args)) ?? { ok: true });
  } catch (err) {
    send(400, { error: err instanceof Error ? err.message : String(err) });
  }
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalSlack } from './local-slack-api.js';

/**
 * A small JSON control API on the stand-in's own port, so a browser UI or a bot's tests in another
 * process can play the user and the platform:
 *   GET    /_local/snapshot?viewer=U…   what that user sees (LocalSlackSnapshot)
 *   GET    /_local/events               Server-Sent Events, `data: {"version":n}` on every change
 *   GET    /_local/log                  { calls, responses, events }: Web API calls, response_url posts, events
 *   GET    /_local/faults | rate-limits | token | app | functions | workflows | installs
 *   DELETE /_local/faults[/<id>][?method=…]   { removed }
 *   POST   /_local/<action>             user actions: command | click | view-action | type | pick | submit |
 *                                       close-view | shortcut | options | message | edit-message |
 *                                       delete-message | open-home | event | assistant (open the
 *                                       assistant pane: { user, channel? }) | assistant-context
 *                                       ({ user, threadTs, channel? }) |
 *                                       workflow ({ user, workflow: { name, steps } }: run it);
 *                                       install ({ installUrl, user, teamId | enterpriseId }: "Add to
 *                                       Slack" as a browser does it), uninstall ({ teamId | enterpriseId });
 *                                       platform: faults | rate-limits | token | channel-state | app | reset
 * POST bodies are the JSON arguments of the matching LocalSlack method; answers are its result (a
 * Delivery for user actions) or `{ error }` with status 400 when the arguments are wrong.
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
  const getters: Record<string, () => unknown> = {
    log: () => ({ calls: slack.calls, responses: slack.responses, events: slack.events }),
    faults: () => ({ faults: slack.listFaults() }),
    'rate-limits': () => slack.rateLimits(),
    token: () => ({ status: slack.tokenStatus() }),
    app: () => slack.snapshot().app,
    functions: () => ({ functions: slack.functions() }),
    workflows: () => ({ workflows: slack.workflows() }),
    installs: () => ({ installs: slack.snapshot().installs }),
  };
  if (req.method === 'GET' && getters[action]) return send(200, getters[action]());
  const one = /^faults(?:\/(\d+))?$/.exec(action);
  if (req.method === 'DELETE' && one) {
    const method = url.searchParams.get('method') ?? undefined;
    const id = one[1] === undefined ? undefined : Number(one[1]);
    return send(200, { removed: slack.clearFaults({ id, method }) });
  }
  if (req.method !== 'POST') return send(404, { error: 'not_found' });
  let args: never;
  try {
    args = JSON.parse(raw || '{}') as never;
  } catch {
    return send(400, { error: 'the body must be JSON' });
  }
  type A = Record<string, never>;
  const actions: Record<string, (a: never) => unknown> = {
    command: (a) => slack.sendCommand(a),
    click: (a) => slack.clickButton(a),
    'view-action': (a) => slack.sendViewAction(a),
    type: (a) => slack.typeIntoView(a),
    pick: (a) => slack.pickOptions(a),
    submit: (a) => slack.submitView(a),
    'close-view': (a) => slack.closeView(a),
    shortcut: (a) => slack.sendShortcut(a),
    options: (a) => slack.sendOptionsRequest(a),
    message: (a) => slack.postUserMessage(a),
    'edit-message': (a) => slack.editUserMessage(a),
    'delete-message': (a) => slack.deleteUserMessage(a),
    'open-home': (a) => slack.openHome(a),
    assistant: (a) => slack.openAssistant(a),
    'assistant-context': (a) => slack.changeAssistantContext(a),
    event: ({ event, ...rest }: A) => slack.sendEvent(event, rest),
    faults: (a) => slack.injectFault(a),
    'rate-limits': ({ enabled, perMinute, postsPerSecondPerChannel }: A) =>
      slack.setRateLimits(enabled === false ? false : { perMinute, postsPerSecondPerChannel }),
    token: ({ status }: A) => {
      slack.setTokenStatus(status);
      return { status: slack.tokenStatus() };
    },
    'channel-state': ({ channel, ...rest }: A) => slack.setChannelState(channel, rest),
    app: (a) => slack.configureApp(a),
    reset: () => slack.reset(),
    workflow: (a) => slack.runWorkflow(a).then((run) => ({ id: run.id })),
    // The browser's whole install; its answer leaves the token out, which only the app may hold.
    install: (a) =>
      slack.installApp(a).then(({ install, ...rest }) => ({
        ...rest,
        ...(install ? { install: { ...install, token: undefined } } : {}),
      })),
    uninstall: (a) => slack.uninstallApp(a),
  };
  const run = actions[action];
  if (!run) return send(404, { error: `unknown control action "${action}"`, actions: Object.keys(actions) });
  try {
    send(200, (await run(args)) ?? { ok: true });
  } catch (err) {
    send(400, { error: err instanceof Error ? err.message : String(err) });
  }
}

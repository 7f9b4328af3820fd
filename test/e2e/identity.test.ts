import { describe, expect, it } from 'vitest';
import { CONNECT_CALLBACK, IDENTITY_ACTION, TOKEN_BLOCK, TOKEN_INPUT } from '../../src/slack/identity/ids.js';
import type { LocalMessage, OpenView } from '../../standins/localslack/index.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import { DEFAULT_CHANNEL, DEFAULT_USER, type Harness } from '../support/harness.js';
import { registerSecrets } from '../support/logs.js';

/**
 * Each person's own service token, through the real bot (startAll: Bolt over HTTP with real signatures,
 * the follow-up worker, a SQLite file), the local Slack and the emulator: /tsai connect opens a private
 * form, the token is checked with the service before it is kept, whoami and the Home tab say whom the
 * person acts as, and disconnecting deletes it. The token never shows in a reply, the store or a log.
 */
let h: Harness;
stackForThisSuite((started) => {
  h = started;
});

const USER = DEFAULT_USER;
const WRONG = 'tok-not-a-real-one-4242424242';
registerSecrets(WRONG);

// biome-ignore lint/suspicious/noExplicitAny: tests read Block Kit JSON by path
type Block = Record<string, any>;
const seen = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;
const team = () => h.slack.teamId;

function connectForm(notId?: string): Promise<OpenView> {
  return h.slack.waitFor(
    (s) => {
      const v = s.topView(USER);
      return v && v.view.callback_id === CONNECT_CALLBACK && v.id !== notId ? v : undefined;
    },
    8000,
    'the Connect form',
  );
}

const replies = (text: string) =>
  h.slack.messages(DEFAULT_CHANNEL, { user: USER }).filter((m) => m.user !== USER && m.text.includes(text));

/** The next reply that says `text`, after those already there. */
function nextReply(text: string): Promise<LocalMessage> {
  const before = replies(text).length;
  return h.slack.waitFor(() => replies(text)[before], 8000, `a reply saying ${text}`);
}

/** `/tsai connect`: the form, and the private line that says it is open. */
async function openConnectForm(): Promise<OpenView> {
  const before = h.slack.topView(USER)?.id;
  const told = nextReply('The Connect form is open');
  const d = await h.command('connect');
  expect(d.status).toBe(200);
  await told;
  return connectForm(before);
}

const submit = (v: OpenView, token: string) =>
  h.slack.submitView({ user: USER, viewId: v.id, values: { [TOKEN_BLOCK]: { [TOKEN_INPUT]: token } } });

const tokenChecks = async () =>
  (await h.serviceRequests()).filter((r) => r.method === 'GET' && r.path.endsWith('/workspace'));

function everything(): string {
  return [
    ...h.slack.calls.map((c) => JSON.stringify(c.args)),
    ...h.slack.responses.map((r) => JSON.stringify(r)),
    ...h.logs,
  ].join('\n');
}

describe('connecting one’s own service token', () => {
  it('whoami before connecting: the bot’s shared identity, and how to connect', async () => {
    const reply = seen(await h.commandAndReply('whoami'));
    expect(reply).toMatch(/not connected: your service calls are made with the bot's shared identity/);
    expect(reply).toContain('/tsai connect');
    expect(reply).toContain(IDENTITY_ACTION.connect);
  });

  it('a token of the wrong shape is refused under the field, and never reaches the service', async () => {
    await h.clearServiceRequests();
    const v = await openConnectForm();
    const d = await submit(v, 'two words');
    expect(d.errors?.[TOKEN_BLOCK]).toMatch(/not a service token/);
    expect(await tokenChecks()).toEqual([]);
    expect(await h.store.getPersonToken(team(), USER)).toBeNull();
    await h.slack.closeView({ user: USER, viewId: v.id });
  });

  it('a token the service refuses is an error under the field; nothing is kept, the form stays open', async () => {
    await h.clearServiceRequests();
    const v = await openConnectForm();
    const d = await submit(v, WRONG);
    expect(d.delivered).toBe(true);
    expect(d.errors?.[TOKEN_BLOCK]).toMatch(
      /The service refused this token \(invalid or expired\), so it was not saved/,
    );
    expect(h.slack.topView(USER)?.id).toBe(v.id);
    const checks = await tokenChecks();
    expect(checks).toHaveLength(1);
    expect(checks[0]!.query).toEqual({ limit: '1' });
    expect(checks[0]!.status).toBe(401);
    expect(await h.store.getPersonToken(team(), USER)).toBeNull();
    const audit = await h.store.listAudit({ operationPrefixes: ['identity.'] });
    expect(audit[0]).toMatchObject({ operation: 'identity.connect', outcome: 'refused', userId: USER });
    await h.slack.closeView({ user: USER, viewId: v.id });
  });

  it('a working token is kept encrypted, and the person is told privately which account they act as', async () => {
    const token = h.emulator.token;
    const v = await openConnectForm();
    const connected = nextReply('You are connected');
    const d = await submit(v, `  ${token}\n`);
    expect(d.errors).toBeUndefined();
    const shown = await h.slack.waitFor(
      (s) => {
        const top = s.topView(USER);
        return top?.id === v.id && JSON.stringify(top.view).includes('You are connected') ? top : undefined;
      },
      5000,
      'the form saying Connected',
    );
    expect(JSON.stringify(shown.view.blocks)).toContain(h.emulator.accountId);
    const row = await h.store.getPersonToken(team(), USER);
    expect(row).toMatchObject({ accountId: h.emulator.accountId, userId: USER, teamId: team() });
    expect(JSON.stringify(row)).not.toContain(token);
    // Told where they asked, too (ephemeral through the command's response_url).
    expect((await connected).text).toContain(h.emulator.accountId);
    const audit = await h.store.listAudit({ operationPrefixes: ['identity.'] });
    expect(audit[0]).toMatchObject({ operation: 'identity.connect', outcome: 'ok', userId: USER });
    expect(everything()).not.toContain(token);
  });

  it('whoami after: connected since a Slack date, to which account; never an ISO time or the token', async () => {
    const m = await h.commandAndReply('whoami');
    const reply = seen(m);
    expect(reply).toMatch(/You act as yourself: connected <!date\^\d+\^/);
    expect(reply).toContain(h.emulator.accountId);
    expect(reply).toContain(IDENTITY_ACTION.disconnect);
    expect(m.text).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
    expect(reply).not.toContain(h.emulator.token);
  });

  it('the Home tab shows the connection with Disconnect, which deletes the token', async () => {
    const d = await h.slack.openHome({ user: USER });
    expect(d.status).toBe(200);
    const home = await h.slack.waitFor(
      (s) => {
        const v = s.state.home.get(USER);
        return v && JSON.stringify(v.view).includes('Your service identity') ? v : undefined;
      },
      8000,
      'the Home with the identity section',
    );
    const blocks = home.view.blocks as Block[];
    const buttons = blocks.find((b) => b.block_id === 'identity_buttons');
    expect(buttons?.elements?.[0]?.action_id).toBe(IDENTITY_ACTION.disconnect);
    const click = await h.slack.sendViewAction({
      user: USER,
      viewId: home.id,
      blockId: 'identity_buttons',
      actionId: IDENTITY_ACTION.disconnect,
    });
    expect(click.status).toBe(200);
    const after = await h.slack.waitFor(
      (s) => {
        const v = s.state.home.get(USER);
        const b = (v?.view.blocks as Block[] | undefined)?.find((x) => x.block_id === 'identity_buttons');
        return b?.elements?.[0]?.action_id === IDENTITY_ACTION.connect ? v : undefined;
      },
      8000,
      'the Home offering Connect again',
    );
    expect(JSON.stringify(after.view)).toContain("the bot's shared identity");
    expect(await h.store.getPersonToken(team(), USER)).toBeNull();
    const audit = await h.store.listAudit({ operationPrefixes: ['identity.'] });
    expect(audit[0]).toMatchObject({ operation: 'identity.disconnect', outcome: 'ok', userId: USER });
  });

  it('the Home’s Connect button opens the same form', async () => {
    const home = h.slack.state.home.get(USER)!;
    const before = h.slack.topView(USER)?.id;
    const click = await h.slack.sendViewAction({
      user: USER,
      viewId: home.id,
      blockId: 'identity_buttons',
      actionId: IDENTITY_ACTION.connect,
    });
    expect(click.status).toBe(200);
    const v = await connectForm(before);
    await h.slack.closeView({ user: USER, viewId: v.id });
  });

  it('/tsai disconnect with nothing connected says there was nothing to delete', async () => {
    const reply = seen(await h.commandAndReply('disconnect'));
    expect(reply).toContain('You had no service token connected, so there was nothing to delete.');
  });

  it('/tsai disconnect after connecting deletes the token and says so', async () => {
    const v = await openConnectForm();
    // The form's acknowledgement keeps the token before it answers.
    const connected = nextReply('You are connected');
    expect((await submit(v, h.emulator.token)).errors).toBeUndefined();
    await connected;
    expect(await h.store.getPersonToken(team(), USER)).not.toBeNull();
    const reply = seen(await h.commandAndReply('disconnect'));
    expect(reply).toContain('Your service token is deleted.');
    expect(await h.store.getPersonToken(team(), USER)).toBeNull();
  });
});

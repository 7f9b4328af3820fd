import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalSlack, startLocalSlack } from '../../../standins/localslack/index.js';

const SECRET = 'installs-signing-secret';
const TOKEN = 'xoxb-installs-default';
const APP = { clientId: '1111.2222', clientSecret: 'installs-client-secret' };

/** Two workspaces of their own and an organisation of two more, with one person each and a shared channel. */
const WORLD = {
  teams: [
    { id: 'T0ACME', name: 'Acme', domain: 'acme' },
    { id: 'T0GLOBEX', name: 'Globex', domain: 'globex' },
    { id: 'T0NORTH', name: 'Initech North', domain: 'initech-north', enterpriseId: 'E0INITECH' },
    { id: 'T0SOUTH', name: 'Initech South', domain: 'initech-south', enterpriseId: 'E0INITECH' },
  ],
  enterprises: [{ id: 'E0INITECH', name: 'Initech' }],
  users: [
    { id: 'U0ANNA', name: 'anna', tz: 'UTC', teamId: 'T0ACME' },
    { id: 'U0GREG', name: 'greg', tz: 'UTC', teamId: 'T0GLOBEX' },
    { id: 'W0NINA', name: 'nina', tz: 'UTC', teamId: 'T0NORTH' },
    { id: 'W0SAM', name: 'sam', tz: 'UTC', teamId: 'T0SOUTH' },
  ],
  channels: [
    { id: 'C0ACME', name: 'acme-ops', teams: ['T0ACME'] },
    { id: 'C0GLOBEX', name: 'globex-ops', teams: ['T0GLOBEX'] },
    { id: 'C0NORTH', name: 'north-ops', teams: ['T0NORTH'] },
    { id: 'C0SHARED', name: 'initech-shared', teams: ['T0NORTH', 'T0SOUTH'] },
  ],
};

/** What the app would do: an install page with its state, and a redirect that exchanges the code. */
interface FakeApp {
  url: string;
  bodies: Record<string, unknown>[];
  exchanged: Record<string, unknown>[];
  server: Server;
}

async function startFakeApp(slack: () => LocalSlack): Promise<FakeApp> {
  const app: FakeApp = { url: '', bodies: [], exchanged: [], server: createServer() };
  const read = (req: IncomingMessage) =>
    new Promise<string>((ok) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => ok(b));
    });
  app.server.on('request', async (req, res) => {
    const u = new URL(req.url ?? '/', app.url);
    if (u.pathname === '/install') {
      const to = new URL('/oauth/v2/authorize', slack().url);
      to.search = new URLSearchParams({
        client_id: APP.clientId,
        scope: 'commands,chat:write',
        redirect_uri: `${app.url}/back`,
        state: 'st-1',
      }).toString();
      res.writeHead(200, { 'set-cookie': 'state=st-1; Path=/; HttpOnly', 'content-type': 'text/html' });
      return void res.end(`<a href="${to.toString().replaceAll('&', '&amp;')}">Add to Slack</a>`);
    }
    if (u.pathname === '/back') {
      const ok =
        req.headers.cookie === 'state=st-1' &&
        u.searchParams.get('state') === 'st-1' &&
        !u.searchParams.has('error');
      const answer = ok
        ? await fetch(`${slack().apiUrl}oauth.v2.access`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              client_id: APP.clientId,
              client_secret: APP.clientSecret,
              code: u.searchParams.get('code') ?? '',
              redirect_uri: `${app.url}/back`,
            }),
          }).then((r) => r.json() as Promise<Record<string, unknown>>)
        : { ok: false, error: u.searchParams.get('error') ?? 'state' };
      app.exchanged.push(answer);
      res.writeHead(answer.ok ? 200 : 400);
      return void res.end(answer.ok ? 'installed' : String(answer.error ?? u.searchParams.get('error')));
    }
    if (u.pathname === '/slack/events') {
      const body = await read(req);
      app.bodies.push(
        req.headers['content-type'] === 'application/json'
          ? (JSON.parse(body) as Record<string, unknown>)
          : Object.fromEntries(new URLSearchParams(body)),
      );
      res.writeHead(200);
      return void res.end();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => app.server.listen(0, '127.0.0.1', ok));
  app.url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return app;
}

let slack: LocalSlack;
let app: FakeApp;

beforeAll(async () => {
  app = await startFakeApp(() => slack);
  slack = await startLocalSlack({ signingSecret: SECRET, botToken: TOKEN, oauth: APP, ...WORLD });
  slack.setBotEndpoint(`${app.url}/slack/events`);
});
afterAll(async () => {
  await slack?.close();
  await new Promise((ok) => app?.server.close(ok));
});
beforeEach(() => {
  slack.reset();
  app.bodies.length = 0;
  app.exchanged.length = 0;
});

const api = async (method: string, token: string | undefined, args: Record<string, unknown> = {}) =>
  (await fetch(`${slack.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(args),
  }).then((r) => r.json())) as Record<string, unknown>;

describe('"Add to Slack" against the stand-in', () => {
  it('installs through the authorize page and oauth.v2.access: a token of its own, seeing its workspace only', async () => {
    const outcome = await slack.installApp({
      installUrl: `${app.url}/install`,
      user: 'U0ANNA',
      teamId: 'T0ACME',
    });
    expect(outcome.status).toBe(200);
    expect(app.exchanged[0]).toMatchObject({
      ok: true,
      access_token: outcome.install?.token,
      bot_user_id: outcome.install?.botUserId,
      team: { id: 'T0ACME', name: 'Acme' },
      enterprise: null,
      is_enterprise_install: false,
      authed_user: { id: 'U0ANNA' },
      scope: 'commands,chat:write',
    });
    const token = outcome.install!.token;
    expect(await api('auth.test', token)).toMatchObject({
      ok: true,
      team_id: 'T0ACME',
      user_id: outcome.install!.botUserId,
    });
    expect(await api('chat.postMessage', token, { channel: 'C0ACME', text: 'hi' })).toMatchObject({
      ok: true,
    });
    expect(slack.messages('C0ACME').at(-1)?.user).toBe(outcome.install!.botUserId);
    // Another workspace's channels and people do not exist for this token.
    expect(await api('chat.postMessage', token, { channel: 'C0GLOBEX', text: 'hi' })).toEqual({
      ok: false,
      error: 'channel_not_found',
    });
    expect(await api('chat.postMessage', token, { channel: 'U0GREG', text: 'hi' })).toEqual({
      ok: false,
      error: 'channel_not_found',
    });
    expect(await api('users.info', token, { user: 'U0GREG' })).toEqual({
      ok: false,
      error: 'user_not_found',
    });
    // The secret never lands in the call log.
    expect(JSON.stringify(slack.calls)).not.toContain(APP.clientSecret);
  });

  it('refuses a wrong client, a wrong secret, a code used twice, and a cancelled install', async () => {
    const page = await fetch(`${slack.url}/oauth/v2/authorize?client_id=9.9&redirect_uri=${app.url}/back`);
    expect(page.status).toBe(400);
    const cancelled = await slack.installApp({
      installUrl: `${app.url}/install`,
      user: 'U0ANNA',
      teamId: 'T0ACME',
      deny: true,
    });
    expect([cancelled.status, cancelled.page, cancelled.install]).toEqual([400, 'access_denied', undefined]);
    const chose = await fetch(`${slack.url}/oauth/v2/authorize`, {
      method: 'POST',
      body: new URLSearchParams({
        client_id: APP.clientId,
        redirect_uri: `${app.url}/back`,
        state: 's',
        target: 'T0ACME',
        user: 'U0ANNA',
        decision: 'allow',
      }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    const code = new URL(chose.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const exchange = (over: Record<string, string>) =>
      api('oauth.v2.access', undefined, {
        client_id: APP.clientId,
        client_secret: APP.clientSecret,
        code,
        redirect_uri: `${app.url}/back`,
        ...over,
      });
    expect(await exchange({ client_secret: 'wrong-secret' })).toEqual({
      ok: false,
      error: 'bad_client_secret',
    });
    expect(await exchange({ redirect_uri: 'https://elsewhere.example/back' })).toEqual({
      ok: false,
      error: 'bad_redirect_uri',
    });
    expect(await exchange({})).toMatchObject({ ok: true });
    expect(await exchange({})).toEqual({ ok: false, error: 'invalid_code' });
  });

  it('sends each workspace its own team in commands and events, from its own installation', async () => {
    const acme = await slack.installApp({
      installUrl: `${app.url}/install`,
      user: 'U0ANNA',
      teamId: 'T0ACME',
    });
    await slack.installApp({ installUrl: `${app.url}/install`, user: 'U0GREG', teamId: 'T0GLOBEX' });
    await slack.sendCommand({ user: 'U0ANNA', channel: 'C0ACME', text: 'help' });
    expect(app.bodies.at(-1)).toMatchObject({
      team_id: 'T0ACME',
      team_domain: 'acme',
      is_enterprise_install: 'false',
    });
    await slack.openHome({ user: 'U0GREG' });
    expect(app.bodies.at(-1)).toMatchObject({
      team_id: 'T0GLOBEX',
      authorizations: [{ team_id: 'T0GLOBEX', enterprise_id: null, is_enterprise_install: false }],
    });
    // Nobody of a workspace where the app is not installed can reach it.
    await slack.uninstallApp({ teamId: 'T0GLOBEX' });
    await expect(slack.sendCommand({ user: 'U0GREG', channel: 'C0GLOBEX', text: 'help' })).rejects.toThrow(
      /not installed in Globex/,
    );
    expect(await api('auth.test', acme.install!.token)).toMatchObject({ ok: true });
  });

  it('an org-wide install serves every workspace of the organisation, its shared channel included', async () => {
    const org = await slack.installApp({
      installUrl: `${app.url}/install`,
      user: 'W0NINA',
      enterpriseId: 'E0INITECH',
    });
    expect(app.exchanged[0]).toMatchObject({
      team: null,
      enterprise: { id: 'E0INITECH', name: 'Initech' },
      is_enterprise_install: true,
    });
    const token = org.install!.token;
    expect(org.install!.botUserId).toMatch(/^W0BOT/);
    for (const channel of ['C0NORTH', 'C0SHARED', 'W0SAM'])
      expect(await api('chat.postMessage', token, { channel, text: 'hi' }), channel).toMatchObject({
        ok: true,
      });
    expect(await api('chat.postMessage', token, { channel: 'C0ACME', text: 'hi' })).toEqual({
      ok: false,
      error: 'channel_not_found',
    });
    await slack.openHome({ user: 'W0SAM' });
    expect(app.bodies.at(-1)).toMatchObject({
      team_id: 'T0SOUTH',
      enterprise_id: 'E0INITECH',
      authorizations: [
        {
          team_id: null,
          enterprise_id: 'E0INITECH',
          is_enterprise_install: true,
          user_id: org.install!.botUserId,
        },
      ],
    });
  });

  it('removing the app revokes its token and tells the bot with tokens_revoked and app_uninstalled', async () => {
    const acme = await slack.installApp({
      installUrl: `${app.url}/install`,
      user: 'U0ANNA',
      teamId: 'T0ACME',
    });
    const told = await slack.uninstallApp({ teamId: 'T0ACME' });
    expect(told.map((d) => d.status)).toEqual([200, 200]);
    expect(app.bodies.map((b) => (b.event as { type: string }).type)).toEqual([
      'tokens_revoked',
      'app_uninstalled',
    ]);
    expect(app.bodies[0]).toMatchObject({
      team_id: 'T0ACME',
      event: { tokens: { bot: [acme.install!.botUserId] } },
    });
    expect(await api('auth.test', acme.install!.token)).toEqual({ ok: false, error: 'token_revoked' });
    // Installed again: a new token, the old one still revoked, the same bot user.
    const again = await slack.installApp({
      installUrl: `${app.url}/install`,
      user: 'U0ANNA',
      teamId: 'T0ACME',
    });
    expect(again.install?.token).not.toBe(acme.install!.token);
    expect(again.install?.botUserId).toBe(acme.install!.botUserId);
  });

  it("keeps the stand-in's own bot token installed in its own workspace, as before", async () => {
    expect(await api('auth.test', TOKEN)).toMatchObject({
      ok: true,
      team_id: 'T0LOCAL',
      user_id: 'U0LOCALBOT',
    });
    expect(await api('chat.postMessage', TOKEN, { channel: 'C0ACME', text: 'hi' })).toEqual({
      ok: false,
      error: 'channel_not_found',
    });
  });
});

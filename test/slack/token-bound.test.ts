import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenBound } from '../../src/slack/install/token-bound.js';
import { type LocalSlack, startLocalSlack } from '../../standins/localslack/index.js';

let slack: LocalSlack;
beforeAll(async () => {
  slack = await startLocalSlack({
    signingSecret: 'token-bound-signing-secret',
    botToken: 'xoxb-token-bound-default',
    teams: [{ id: 'T0ACME', name: 'Acme', domain: 'acme' }],
    users: [
      { id: 'U0ALICE', name: 'alice', tz: 'UTC' },
      { id: 'U0ANNA', name: 'anna', tz: 'UTC', teamId: 'T0ACME' },
    ],
    channels: [
      { id: 'C0OPS', name: 'ops' },
      { id: 'C0ACME', name: 'acme-ops', teams: ['T0ACME'] },
    ],
    oauth: { clientId: '1.2', clientSecret: 'token-bound-client-secret' },
  });
});
afterAll(async () => {
  await slack?.close();
});

describe("one Web API client, each installation's view of it carrying its own token", () => {
  it('posts as the installation whose view it is, and tells when Slack refuses that token', async () => {
    const shared = new WebClient(undefined, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    // An installation made as the authorize page and oauth.v2.access make it (no app in between).
    const chose = await fetch(`${slack.url}/oauth/v2/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: '1.2',
        redirect_uri: 'http://127.0.0.1:1/back',
        target: 'T0ACME',
        user: 'U0ANNA',
        decision: 'allow',
      }),
      redirect: 'manual',
    });
    const code = new URL(chose.headers.get('location') ?? '').searchParams.get('code');
    const access = await shared.oauth.v2.access({
      client_id: '1.2',
      client_secret: 'token-bound-client-secret',
      code: code ?? '',
      redirect_uri: 'http://127.0.0.1:1/back',
    });
    const refused: string[] = [];
    const acme = tokenBound(shared, String(access.access_token), (e) => refused.push(`acme:${e}`));
    const local = tokenBound(shared, 'xoxb-token-bound-default', (e) => refused.push(`local:${e}`));
    await acme.chat.postMessage({ channel: 'C0ACME', text: 'from acme' });
    await local.chat.postMessage({ channel: 'C0OPS', text: 'from local' });
    expect(slack.messages('C0ACME').at(-1)?.user).toBe(access.bot_user_id);
    expect(slack.messages('C0OPS').at(-1)?.user).toBe('U0LOCALBOT');
    await expect(acme.chat.postMessage({ channel: 'C0OPS', text: 'elsewhere' })).rejects.toThrow(
      /channel_not_found/,
    );
    expect(((await acme.apiCall('auth.test')) as { team_id?: string }).team_id).toBe('T0ACME');
    slack.setTokenStatus('revoked');
    await expect(local.auth.test()).rejects.toThrow(/token_revoked/);
    expect(refused).toEqual(['local:token_revoked']);
    // The shared client itself holds no token.
    await expect(shared.auth.test()).rejects.toThrow(/not_authed/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstallsRig, startInstallsRig } from '../support/installs-rig.js';
import { waitUntil } from '../support/patience.js';

let rig: InstallsRig;

beforeAll(async () => {
  rig = await startInstallsRig();
});
afterAll(async () => {
  await rig?.close();
});

const homeOf = (user: string) => rig.slack.state.home.get(user);

describe('"Add to Slack": one bot, installed by many workspaces through the OAuth flow', () => {
  it("installs in two workspaces through Slack's pages, each kept with its token encrypted", async () => {
    const page = await fetch(rig.installUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toMatch(/slack-app-oauth-state=/);
    expect(await page.text()).toContain('Add to Slack');

    const acme = await rig.install({ teamId: 'T0ACME' }, 'U0ANNA');
    expect(acme.status).toBe(200);
    expect(acme.page).toContain('installed in <strong>Acme</strong>');
    expect(acme.page).toContain('/tsai setup');
    const globex = await rig.install({ teamId: 'T0GLOBEX' }, 'U0GREG');
    expect(globex.page).toContain('installed in <strong>Globex</strong>');

    for (const [tenant, install] of [
      ['T0ACME', acme.install!],
      ['T0GLOBEX', globex.install!],
    ] as const) {
      const row = await rig.store.getTenantSecret(tenant, 'installation');
      expect(row?.facts).toMatchObject({ team: { id: tenant }, bot: { userId: install.botUserId } });
      // The token is in the store only as ciphertext.
      expect(JSON.stringify(row)).not.toContain(install.token);
    }
    const audit = await rig.store.listAudit({ operationPrefixes: ['app.installed'] });
    expect(audit.map((a) => [a.teamId, a.userId])).toEqual([
      ['T0GLOBEX', 'U0GREG'],
      ['T0ACME', 'U0ANNA'],
    ]);
  });

  it("answers each workspace through its own installation's token", async () => {
    await rig.slack.openHome({ user: 'U0ANNA' });
    await rig.slack.openHome({ user: 'U0GREG' });
    await waitUntil(() => expect(homeOf('U0ANNA') && homeOf('U0GREG')).toBeTruthy());
    // The stand-in takes a publish for a person only from a token of their workspace.
    const published = rig.slack.calls.filter((c) => c.method === 'views.publish');
    expect(published.every((c) => c.response.ok === true)).toBe(true);
    const help = await rig.commandAndReply('help', 'U0GREG', 'C0GLOBEX');
    expect(help.text).toBe('tsai commands');
  });

  it('an install whose state is not of this browser, or cancelled in Slack, installs nothing and says how to start again', async () => {
    const forged = await fetch(
      `${rig.installUrl.replace('/slack/install', '/slack/oauth_redirect')}?code=x&state=forged`,
    );
    expect(forged.status).toBe(400);
    const text = await forged.text();
    expect(text).toContain('nothing was installed');
    expect(text).toContain('href="/slack/install"');
    const cancelled = await rig.slack.installApp({
      installUrl: rig.installUrl,
      user: 'W0NINA',
      teamId: 'T0NORTH',
      deny: true,
    });
    expect(cancelled.status).toBe(400);
    expect(cancelled.page).toContain('cancelled');
    expect(await rig.store.getTenantSecret('T0NORTH', 'installation')).toBeNull();
  });

  it('removing the app from one workspace deletes its tokens; the other is served still', async () => {
    await rig.slack.uninstallApp({ teamId: 'T0GLOBEX' });
    await waitUntil(async () =>
      expect(await rig.store.getTenantSecret('T0GLOBEX', 'installation')).toBeNull(),
    );
    // Audited after the tokens are deleted: waited for in its turn.
    await waitUntil(async () =>
      expect((await rig.store.listAudit({ operationPrefixes: ['app.removed'] }))[0]).toMatchObject({
        teamId: 'T0GLOBEX',
        params: { installation: true },
      }),
    );
    await waitUntil(() => expect(rig.logs.join('')).toContain('the app was removed'));
    const before = rig.slack.calls.length;
    await rig.slack.openHome({ user: 'U0ANNA' });
    await waitUntil(() =>
      expect(rig.slack.calls.slice(before).some((c) => c.method === 'views.publish' && c.response.ok)).toBe(
        true,
      ),
    );
    expect(await rig.store.getTenantSecret('T0ACME', 'installation')).not.toBeNull();
  });
});

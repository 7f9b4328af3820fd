import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorControl } from '../support/emulator.js';
import { type Company, type InstallsRig, startInstallsRig } from '../support/installs-rig.js';
import { waitUntil } from '../support/patience.js';

/**
 * Two companies install the app with "Add to Slack", each connects its own service account (an emulator
 * of its own), and neither reaches the other's account nor sees its flows, requests, schedules, names or
 * people's tokens, through commands, forms, buttons, the Home, schedules and Workflow Builder steps.
 */

const W = '1030000000000000001';
const SIGNALS = '1050000000000000001:temperature,1050000000000000002:pressure';
const RANGE = '2026-11-01 to 2026-11-03';
const MODEL = '1070000000000000003';
const learn = (name: string) => `learn workspace=${W} signals=${SIGNALS} range="${RANGE}" name="${name}"`;

let rig: InstallsRig;
const serviceLog = (c: Company) => rig.serviceLog(c);
const flowPosts = (c: Company) => rig.flowPosts(c);
const text = (m: { text: string; blocks?: unknown[] }) => `${m.text} ${JSON.stringify(m.blocks ?? [])}`;

beforeAll(async () => {
  rig = await startInstallsRig({ env: { TSAI_APPROVERS: 'U0ARNE,U0GINA', TSAI_TRACK_FIRST_POLL: '30s' } });
  await rig.install({ teamId: 'T0ACME' }, 'U0ANNA');
  await rig.install({ teamId: 'T0GLOBEX' }, 'U0GREG');
});
afterAll(async () => {
  await rig?.close();
});

describe('two workspaces, each with its own service account', () => {
  it('sends nothing anywhere until the workspace is connected, and only its admins connect it', async () => {
    const before = await rig.commandAndReply(`workspace show ${W}`, 'U0ANNA', 'C0ACME');
    expect(before.text).toContain('not connected to a service account yet');
    expect(before.text).toContain('/tsai setup');
    const arne = await rig.commandAndReply('setup', 'U0ARNE', 'C0ACME');
    expect(arne.text).toContain('Only the admins');
    expect(rig.slack.topView('U0ARNE')).toBeUndefined();
    // A token of another company's account is refused by this one's service, and nothing is kept.
    const wrong = await rig.setUp('U0ANNA', 'C0ACME', 'acme', { token: rig.emulators.globex.token });
    expect(wrong.errors).toEqual({ setup_token: expect.stringContaining('refused this token') });
    const wrongAccount = await rig.setUp('U0ANNA', 'C0ACME', 'acme', { accountId: '1000000000000000999' });
    expect(wrongAccount.errors).toEqual({ setup_account_id: expect.stringContaining('knows no account') });
    expect(await rig.store.getTenantSecret('T0ACME', 'service-account')).toBeNull();
    for (const c of ['acme', 'globex', 'initech'] as const)
      expect((await serviceLog(c)).filter((r) => !r.path.endsWith('/workspace'))).toEqual([]);

    expect((await rig.setUp('U0ANNA', 'C0ACME', 'acme')).errors).toBeUndefined();
    // Gina is one of Globex's Slack admins; Greg installed it.
    expect((await rig.setUp('U0GINA', 'C0GLOBEX', 'globex')).errors).toBeUndefined();
    const kept = await rig.store.getTenantSecret('T0GLOBEX', 'service-account');
    expect(kept?.facts).toMatchObject({ accountId: rig.emulators.globex.accountId, connectedBy: 'U0GINA' });
    expect(JSON.stringify(kept)).not.toContain(rig.emulators.globex.token);
    const audited = await rig.store.listAudit({ operationPrefixes: ['tenant.connect'] });
    expect(audited.map((e) => [e.teamId, e.userId, e.outcome])).toEqual([
      ['T0GLOBEX', 'U0GINA', 'ok'],
      ['T0ACME', 'U0ANNA', 'ok'],
      ['T0ACME', 'U0ANNA', 'refused'],
    ]);
    expect(JSON.stringify(audited)).not.toContain(rig.emulators.acme.token);
  });

  it("runs each workspace's commands against its own account only", async () => {
    await rig.commandAndReply(`workspace show ${W}`, 'U0ANNA', 'C0ACME');
    const acmeLearn = await rig.commandAndReply(learn('acme-learn'), 'U0ANNA', 'C0ACME');
    expect(text(acmeLearn)).toMatch(/acme-learn/);
    await waitUntil(async () => expect(await flowPosts('acme')).toHaveLength(1));
    const globexLearn = await rig.commandAndReply(learn('globex-learn'), 'U0GREG', 'C0GLOBEX');
    expect(text(globexLearn)).toMatch(/globex-learn/);
    await waitUntil(async () => expect(await flowPosts('globex')).toHaveLength(1));
    expect(JSON.stringify(await flowPosts('acme'))).not.toContain('globex-learn');
    expect(JSON.stringify(await flowPosts('globex'))).not.toContain('acme-learn');
    expect(await flowPosts('initech')).toEqual([]);
  });

  it("shows neither workspace the other's flows", async () => {
    const acmeFlow = (await rig.store.listTrackedFlows({ teamId: 'T0ACME' }))[0]!;
    const globexFlows = (await rig.commandAndReply('flows', 'U0GREG', 'C0GLOBEX')).text;
    expect(globexFlows).not.toContain(acmeFlow.flowId);
    const acmeBefore = (await serviceLog('acme')).length;
    // Globex's ID names a flow of Globex's own service, if any: that service is asked, with Globex's
    // account, and says it knows none; nothing of Acme's flow is shown, and Acme's service hears nothing.
    const other = await rig.commandAndReply(`flow ${acmeFlow.flowId}`, 'U0GREG', 'C0GLOBEX');
    expect(other.text).toContain(`There is no flow ${acmeFlow.flowId} to show here`);
    expect(text(other)).not.toContain('acme-learn');
    expect((await serviceLog('globex')).at(-1)?.path).toContain(`/flows/${acmeFlow.flowId}`);
    expect((await serviceLog('acme')).length).toBe(acmeBefore);
  });

  it('keeps the names each workspace learned to itself', async () => {
    const acme = await rig.commandAndReply('workspace show "Pump station A"', 'U0ANNA', 'C0ACME');
    expect(acme.text).toContain('Pump station A');
    const before = (await serviceLog('globex')).length;
    const globex = await rig.commandAndReply('workspace show "Pump station A"', 'U0GREG', 'C0GLOBEX');
    expect(text(globex)).toMatch(/no workspace|not know|never/i);
    expect((await serviceLog('globex')).length).toBe(before);
  });

  it('answers @tsai in each workspace through its own installation: in a thread, and in direct messages', async () => {
    const botOf = (teamId: string) =>
      rig.slack.installs().find((i) => i.status === 'active' && i.teamId === teamId)!.botUserId;
    const [acmeBot, globexBot] = [botOf('T0ACME'), botOf('T0GLOBEX')];
    expect(acmeBot).not.toBe(globexBot);
    /**
     * `user` writes in `channel`; the bot's first answer they see: a lookup asked at the top of a channel is
     * shown to them in the channel (what others see would be in the thread), in the direct messages there.
     */
    const ask = async (user: string, channel: string, words: string, bot: string) => {
      const asked = rig.slack.postUserMessage({ user, channel, text: words });
      return rig.slack.waitFor(
        () => rig.slack.messages(channel, { user }).find((m) => m.ts > asked.ts && m.user === bot),
        60_000,
        `the answer to "${words}" from ${user}`,
      );
    };
    const acmeFlow = (await rig.store.listTrackedFlows({ teamId: 'T0ACME' }))[0]!;
    const globexFlow = (await rig.store.listTrackedFlows({ teamId: 'T0GLOBEX' }))[0]!;

    // Each workspace's people mention their own installation's bot user, which answers them.
    const before = (await serviceLog('acme')).length;
    const globex = text(await ask('U0GREG', 'C0GLOBEX', `@tsai workspace show ${W}`, globexBot));
    expect(globex).toContain('Pump station A');
    expect((await serviceLog('globex')).at(-1)?.path).toContain(`/workspace/${W}`);
    expect((await serviceLog('acme')).length).toBe(before);
    const acme = text(await ask('U0ANNA', 'C0ACME', '@tsai flows', acmeBot));
    expect(acme).toContain(acmeFlow.flowId);
    expect(acme).not.toContain(globexFlow.flowId);

    // The Messages tab: the same, through the person's own installation.
    const own = text(await ask('U0GREG', 'DU0GREG', `flow ${globexFlow.flowId}`, globexBot));
    expect(own).toContain(globexFlow.flowId);
    expect(own).not.toContain('There is no flow');
    const other = text(await ask('U0GREG', 'DU0GREG', `flow ${acmeFlow.flowId}`, globexBot));
    expect(other).toContain(`There is no flow ${acmeFlow.flowId} to show here`);
  });

  it("keeps each workspace's approval requests to it: listing, Home and audit", async () => {
    const filed = await rig.commandAndReply(
      `live start ${MODEL} reason="acme night shift"`,
      'U0ANNA',
      'C0ACME',
    );
    expect(text(filed)).toMatch(/approv/i);
    const request = (await rig.store.listApprovals({ teamId: 'T0ACME' }))[0]!;
    const gina = await rig.commandAndReply('approvals', 'U0GINA', 'C0GLOBEX');
    expect(gina.text).not.toContain(request.id);
    expect(text(gina)).not.toContain('acme night shift');
    await rig.slack.openHome({ user: 'U0GINA' });
    const home = await rig.slack.waitFor(() => rig.slack.state.home.get('U0GINA'));
    expect(JSON.stringify(home.view)).not.toContain('acme night shift');
    const audit = await rig.commandAndReply('audit', 'U0GINA', 'C0GLOBEX');
    expect(text(audit)).not.toContain('acme-learn');
  });

  it('keeps schedules to their workspace, run against its own account', async () => {
    const made = await rig.commandAndReply(
      `schedule "every day at 06:00 in UTC" ${learn('acme-nightly')}`,
      'U0ANNA',
      'C0ACME',
    );
    expect(text(made)).toMatch(/every day/i);
    const globex = await rig.commandAndReply('schedules', 'U0GREG', 'C0GLOBEX');
    expect(text(globex)).not.toContain('acme-nightly');
    const ours = await rig.store.listSchedules({ teamId: 'T0ACME' });
    expect(ours.map((s) => s.name)).toHaveLength(1);
    expect(await rig.store.listSchedules({ teamId: 'T0GLOBEX' })).toEqual([]);
  });

  it("connects people's own tokens per workspace, checked against its own account", async () => {
    const people = emulatorControl(rig.emulators.acme.url);
    const { token } = (await people('POST', 'users', { name: 'anna', role: 'Manager' })) as { token: string };
    const d = await rig.connectToken('U0ANNA', 'C0ACME', token);
    expect(d.errors).toBeUndefined();
    expect((await rig.store.getPersonToken('T0ACME', 'U0ANNA'))?.accountId).toBe(
      rig.emulators.acme.accountId,
    );
    const greg = await rig.commandAndReply('whoami', 'U0GREG', 'C0GLOBEX');
    expect(greg.text).toContain('You are not connected');
    // The same token pasted in the other workspace is checked against that workspace's account: refused.
    const refused = await rig.connectToken('U0GREG', 'C0GLOBEX', token);
    expect(refused.errors).toEqual({ service_token: expect.stringContaining('refused') });
    expect(await rig.store.getPersonToken('T0GLOBEX', 'U0GREG')).toBeNull();
  });

  it('runs a Workflow Builder step of one workspace against its account, completed with its token', async () => {
    const ex = await rig.slack.runFunction({
      callbackId: 'tsai_learn',
      user: 'U0GREG',
      inputs: { workspace: W, signals: SIGNALS, range: RANGE, name: 'globex-step' },
    });
    await waitUntil(async () => expect(JSON.stringify(await flowPosts('globex'))).toContain('globex-step'));
    expect(JSON.stringify(await flowPosts('acme'))).not.toContain('globex-step');
    const step = await waitUntil(async () => {
      const row = await rig.store.getStepExecution(ex.id);
      expect(row?.teamId).toBe('T0GLOBEX');
      return row;
    });
    expect(step?.userId).toBe('U0GREG');
  });

  it('removing the app from one workspace deletes all its tokens and pauses its schedules; the other goes on', async () => {
    await rig.slack.uninstallApp({ teamId: 'T0ACME' });
    // Its schedules are paused last, after every secret is deleted.
    await waitUntil(async () =>
      expect((await rig.store.listSchedules({ teamId: 'T0ACME' })).map((s) => s.status)).toEqual(['paused']),
    );
    expect(await rig.store.getTenantSecret('T0ACME', 'installation')).toBeNull();
    expect(await rig.store.getTenantSecret('T0ACME', 'service-account')).toBeNull();
    expect(await rig.store.getPersonToken('T0ACME', 'U0ANNA')).toBeNull();
    const globex = await rig.commandAndReply(`workspace show ${W}`, 'U0GREG', 'C0GLOBEX');
    expect(globex.text).toContain('Pump station A');
  });
});

describe('an org-wide install on Enterprise Grid', () => {
  it('answers in every workspace of the organisation, its shared channel included, as one tenant', async () => {
    const org = await rig.install({ enterpriseId: 'E0INITECH' }, 'W0NINA');
    expect(org.page).toContain('for the whole organisation');
    expect((await rig.setUp('W0NINA', 'C0NORTH', 'initech')).errors).toBeUndefined();
    const north = await rig.commandAndReply(learn('initech-shared-learn'), 'W0NINA', 'C0SHARED');
    expect(text(north)).toMatch(/initech-shared-learn/);
    await waitUntil(async () => expect(await flowPosts('initech')).toHaveLength(1));
    // The organisation is the tenant, whichever of its workspaces asked.
    const flow = await waitUntil(async () => {
      const [f] = await rig.store.listTrackedFlows({ teamId: 'E0INITECH' });
      expect(f).toBeDefined();
      return f!;
    });
    // Sam, in the organisation's other workspace, sees the flow started in the channel they share.
    const sam = await rig.commandAndReply('flows', 'W0SAM', 'C0SHARED');
    expect(text(sam)).toContain(flow.flowId);
    // A mention of the organisation's one bot user, from either workspace, is answered as the same tenant.
    const orgBot = rig.slack.installs().find((i) => i.status === 'active' && i.isEnterpriseInstall)!;
    const asked = rig.slack.postUserMessage({ user: 'W0SAM', channel: 'C0SHARED', text: '@tsai flows' });
    // A lookup: shown to Sam alone, in the channel, where he looks.
    const mentioned = await rig.slack.waitFor(
      () =>
        rig.slack
          .messages('C0SHARED', { user: 'W0SAM' })
          .find((m) => m.user === orgBot.botUserId && m.ts > asked.ts && m.ephemeralTo === 'W0SAM'),
      60_000,
      'the answer to @tsai flows in the shared channel',
    );
    expect(text(mentioned)).toContain(flow.flowId);
    // Who a person is (their name on a flow, their standing) is asked with their own installation's token.
    expect(rig.logs.filter((l) => l.includes('not_authed'))).toEqual([]);
    const south = await rig.commandAndReply(`workspace show ${W}`, 'W0SAM', 'C0SOUTH');
    expect(south.text).toContain('Pump station A');
    expect(await rig.store.getTenantSecret('T0NORTH', 'installation')).toBeNull();
    expect(await rig.store.getTenantSecret('E0INITECH', 'installation')).not.toBeNull();
  });
});

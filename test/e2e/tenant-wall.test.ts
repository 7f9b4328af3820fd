import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLOW_ACTION } from '../../src/slack/flows/views.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import { buttonsOf } from '../support/approvals-rig.js';
import { emulatorControl } from '../support/emulator.js';
import { type Company, type InstallsRig, openSetupForm, startInstallsRig } from '../support/installs-rig.js';
import { registerSecrets } from '../support/logs.js';
import { waitUntil } from '../support/patience.js';

/**
 * The tenant is a wall, through the real bot in "Add to Slack" mode against the local Slack and an emulator
 * per company, whose services hand out the same IDs: each finding of the review, as the admin or a member of
 * another workspace would try it. Acme was installed by Anna (no admin), who connected it; Ada and Alf are
 * its admins; Globex was installed by Greg and connected by its admin Gina; Initech's organisation was
 * installed org-wide by Nina; Olga is one of its organisation admins, Nora an admin of its North workspace
 * only. Acme and Globex share a channel (Slack Connect).
 */

const W = '1030000000000000001';
const SIGNALS = '1050000000000000001:temperature';
const RANGE = '2026-11-01 to 2026-11-03';
const MODEL = '1070000000000000003';
const learn = (name: string) => `learn workspace=${W} signals=${SIGNALS} range="${RANGE}" name="${name}"`;

let rig: InstallsRig;
const serviceLog = (c: Company) => rig.serviceLog(c);
const flowPosts = (c: Company) => rig.flowPosts(c);
const full = (m: { text: string; blocks?: unknown[] }) => `${m.text} ${JSON.stringify(m.blocks ?? [])}`;
/** Ends flow `id` at company `c`'s service, as it would end on its own. */
const finish = (c: Company, id: string, ending: { status?: string; message?: string } = {}) =>
  emulatorControl(rig.emulators[c].url)('POST', `flows/${id}/finish`, ending);

/**
 * `/tsai <text>` from `user` in `channel`, and the first message the bot then shows them there that says
 * `what` (what a slower answer to an earlier command says is passed over).
 */
async function answer(text: string, user: string, channel: string, what: RegExp) {
  const before = new Set(rig.slack.messages(channel, { user }).map((m) => m.ts));
  const d = await rig.slack.sendCommand({ user, channel, text });
  expect(d.status).toBe(200);
  return rig.slack.waitFor(
    () =>
      rig.slack
        .messages(channel, { user })
        .find((m) => !before.has(m.ts) && m.kind !== 'command' && m.user !== user && what.test(full(m))),
    60_000,
    `the answer to /tsai ${text} from ${user}, saying ${what}`,
  );
}

/** The flow `flowId` as followed for `teamId`, read as any surface lists a team's flows. */
const followed = async (teamId: string, flowId: string) =>
  (await rig.store.listTrackedFlows({ teamId, limit: 100 })).find((f) => f.flowId === flowId);

/** `/tsai setup` from `user`: the form, or what the bot said instead. */
const openSetup = (user: string, channel: string, teamId?: string) =>
  openSetupForm(rig.slack, user, channel, teamId);

/** The direct messages `user` got from the bot since `since`. */
const dmsOf = (user: string, since = '0') =>
  rig.slack.messages(`D${user}`, { user }).filter((m) => m.ts > since && m.user !== user);

/** Ada sends Acme's setup form `viewId` with Acme's own account, at `baseUrl`. */
const setAcme = (viewId: string, baseUrl: string) =>
  rig.slack.submitView({
    user: 'U0ADA',
    viewId,
    values: {
      setup_base_url: { setup_base_url_input: baseUrl },
      setup_account_id: { setup_account_id_input: rig.emulators.acme.accountId },
      setup_token: { setup_token_input: rig.emulators.acme.token },
    },
  });

/** A stand-in for a service at an address of the bot's own network: it records every request it gets. */
async function listening(host: string, answer: number) {
  const seen: { path: string; authorization?: string }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({
      path: req.url ?? '',
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
    res
      .writeHead(answer, { 'content-type': 'application/json' })
      .end(answer < 300 ? '[]' : '{"message":"no"}');
  });
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  return {
    seen,
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

beforeAll(async () => {
  rig = await startInstallsRig({
    sameIds: true,
    env: {
      TSAI_APPROVERS: 'U0ARNE,U0GINA',
      TSAI_TRACK_FIRST_POLL: '200ms',
      TSAI_TRACK_MAX_INTERVAL: '500ms',
    },
    extra: {
      users: [
        { id: 'U0ADA', name: 'ada', tz: 'UTC', teamId: 'T0ACME', isAdmin: true },
        { id: 'U0ALF', name: 'alf', tz: 'UTC', teamId: 'T0ACME', isOwner: true },
        { id: 'U0GUS', name: 'gus', tz: 'UTC', teamId: 'T0ACME', guest: 'multi-channel' },
        { id: 'W0OLGA', name: 'olga', tz: 'UTC', teamId: 'T0NORTH', orgAdmin: true },
        { id: 'W0NORA', name: 'nora', tz: 'UTC', teamId: 'T0NORTH', isAdmin: true },
      ],
      channels: [{ id: 'C0CONNECT', name: 'acme-globex', teams: ['T0ACME', 'T0GLOBEX'] }],
    },
  });
  await rig.install({ teamId: 'T0ACME' }, 'U0ANNA');
  await rig.install({ teamId: 'T0GLOBEX' }, 'U0GREG');
  expect((await rig.setUp('U0ANNA', 'C0ACME', 'acme')).errors).toBeUndefined();
  expect((await rig.setUp('U0GINA', 'C0GLOBEX', 'globex')).errors).toBeUndefined();
});
afterAll(async () => {
  await rig?.close();
});

describe('the same flow ID at two tenants is two flows', () => {
  let flowId: string;

  it('follows each tenant its own flow, and shows each its own, by every surface that reads one', async () => {
    const acme = await answer(learn('acme-learn'), 'U0ANNA', 'C0ACME', /acme-learn/);
    const globex = await answer(learn('globex-learn'), 'U0GREG', 'C0GLOBEX', /globex-learn/);
    const [acmePost] = await flowPosts('acme');
    const [globexPost] = await flowPosts('globex');
    expect(acmePost?.status).toBe(201);
    flowId = /\b(14\d{17})\b/.exec(full(acme))![1]!;
    // The two services handed out the same flow ID.
    expect(full(globex)).toContain(flowId);
    const globexRow = await waitUntil(async () => {
      expect(await followed('T0ACME', flowId)).toBeDefined();
      const row = await followed('T0GLOBEX', flowId);
      expect(row).toBeDefined();
      return row!;
    });
    expect(globexRow.asked).toContain('globex-learn');
    expect(globexPost?.status).toBe(201);
    // `/tsai flow` and `/tsai flows` show each its own: Greg's flow is his, not "no flow".
    const greg = await answer(`flow ${flowId}`, 'U0GREG', 'C0GLOBEX', new RegExp(flowId));
    expect(full(greg)).not.toContain('There is no flow');
    expect(full(greg)).toContain('globex-learn');
    expect(full(greg)).not.toContain('acme-learn');
    const anna = await answer(`flow ${flowId}`, 'U0ANNA', 'C0ACME', new RegExp(flowId));
    expect(full(anna)).toContain('acme-learn');
    expect(full(anna)).not.toContain('globex-learn');
    const list = await answer('flows', 'U0GREG', 'C0GLOBEX', /flow/i);
    expect(full(list)).toContain(flowId);
    // Asked by a mention (a lookup: answered to Greg alone, where he looks), and in the bot's direct
    // messages, Greg's installation answers with Greg's flow.
    const globexBot = rig.slack.installs().find((i) => i.installed && i.teamId === 'T0GLOBEX')!.botUserId;
    const mentioned = rig.slack.postUserMessage({
      user: 'U0GREG',
      channel: 'C0GLOBEX',
      text: `@tsai flow ${flowId}`,
    });
    const byMention = await rig.slack.waitFor(
      () =>
        rig.slack
          .messages('C0GLOBEX', { user: 'U0GREG', threadTs: mentioned.ts })
          .find((m) => m.ts > mentioned.ts && m.user === globexBot) ??
        rig.slack
          .messages('C0GLOBEX', { user: 'U0GREG' })
          .find((m) => m.ts > mentioned.ts && m.ephemeralTo === 'U0GREG' && m.user === globexBot),
      60_000,
      'the answer to @tsai flow',
    );
    const direct = rig.slack.postUserMessage({ user: 'U0GREG', channel: 'DU0GREG', text: `flow ${flowId}` });
    const inDm = await rig.slack.waitFor(
      () =>
        rig.slack
          .messages('DU0GREG', { user: 'U0GREG' })
          .find((m) => m.ts > direct.ts && m.user === globexBot),
      60_000,
      'the answer to flow in the direct messages',
    );
    for (const m of [byMention, inDm]) {
      expect(full(m)).toContain('globex-learn');
      expect(full(m)).not.toContain('acme-learn');
    }
  });

  it("announces each tenant's end on its own announcement, and only there", async () => {
    await finish('globex', flowId);
    const ended = await waitUntil(async () => {
      const row = await followed('T0GLOBEX', flowId);
      expect(row?.notifiedAt).toBeTruthy();
      return row!;
    });
    expect(ended.announcement).toMatchObject({ kind: 'message', channelId: 'C0GLOBEX' });
    const acme = await followed('T0ACME', flowId);
    expect(acme?.endReason).toBeNull();
    expect(acme?.announcement).toMatchObject({ kind: 'message', channelId: 'C0ACME' });
    // Acme's announcement still shows its flow under way; Globex's says it completed.
    const shown = (channel: string) =>
      rig.slack.messages(channel).find((m) => m.ts === (ended.announcement as { ts: string }).ts || false);
    expect(shown('C0GLOBEX')).toBeDefined();
    expect(
      rig.slack.messages('C0ACME').some((m) => /completed/i.test(full(m)) && full(m).includes(flowId)),
    ).toBe(false);
    // Acme's own ends in its turn (its service made as many records as Globex's: their next IDs agree again).
    await finish('acme', flowId);
    await waitUntil(async () => expect((await followed('T0ACME', flowId))?.notifiedAt).toBeTruthy());
  });

  it("never completes a step with another tenant's flow of the same ID", async () => {
    // Anna's learn, then Greg's workflow step: both services hand out the same ID again.
    const anna = await answer(learn('acme-second'), 'U0ANNA', 'C0ACME', /acme-second/);
    const id = /\b(14\d{17})\b/.exec(full(anna))![1]!;
    const ex = await rig.slack.runFunction({
      callbackId: 'tsai_learn',
      user: 'U0GREG',
      inputs: { workspace: W, signals: SIGNALS, range: RANGE, name: 'globex-step' },
    });
    const step = await waitUntil(async () => {
      const row = await rig.store.getStepExecution(ex.id);
      expect(row?.flowId).toBe(id);
      return row!;
    });
    expect(step.teamId).toBe('T0GLOBEX');
    // Acme's flow completes; Globex's fails. The step is Globex's: it ends with its own flow's failure.
    await finish('acme', id);
    await waitUntil(async () => expect((await followed('T0ACME', id))?.notifiedAt).toBeTruthy());
    await finish('globex', id, { status: 'FAILED', message: 'the sensor data of the range was empty' });
    const done = await rig.slack.waitFor(
      (s) => {
        const e = s.execution(ex.id);
        return e && e.state !== 'running' ? e : undefined;
      },
      60_000,
      'the step of Globex',
    );
    expect(done.state).toBe('failed');
    expect(done.error).toMatch(/sensor data of the range was empty/);
  });

  it('keeps approvals and names to each tenant, however the IDs agree', async () => {
    await answer(`live start ${MODEL} reason="acme night"`, 'U0ANNA', 'C0ACME', /approv/i);
    await answer(`live start ${MODEL} reason="globex night"`, 'U0GREG', 'C0GLOBEX', /approv/i);
    const greg = await answer('approvals', 'U0GINA', 'C0GLOBEX', /pending|request/i);
    expect(full(greg)).toContain('globex night');
    expect(full(greg)).not.toContain('acme night');
    // A name one tenant gave is unknown to the other, though its service has the same ID.
    await answer('workspace create name="acme-only"', 'U0ANNA', 'C0ACME', /acme-only/);
    const before = (await serviceLog('globex')).length;
    const asked = await answer('workspace show "acme-only"', 'U0GREG', 'C0GLOBEX', /acme-only/);
    expect(asked.text).toContain('No workspace named "acme-only" is known');
    expect((await serviceLog('globex')).length).toBe(before);
  });
});

describe('a service URL given in /tsai setup is untrusted input', () => {
  // Whatever a refused URL would have done, Acme works with its own service again afterwards.
  afterAll(async () => {
    const { viewId } = await openSetup('U0ADA', 'C0ACME');
    if (viewId) await setAcme(viewId, rig.emulators.acme.url);
  });

  it("refuses an address of the bot's own network and the cloud's metadata address, and sends them nothing", async () => {
    const inside = await listening('127.0.0.2', 200);
    try {
      for (const baseUrl of [inside.url, inside.url.replace('http:', 'https:'), 'https://169.254.169.254']) {
        const { viewId, said } = await openSetup('U0ADA', 'C0ACME');
        expect(viewId, said).toBeDefined();
        const sent = await setAcme(viewId!, baseUrl);
        expect(sent.errors?.setup_base_url ?? '(kept)', baseUrl).toMatch(
          /reaches into the bot's own network/,
        );
        await rig.slack.closeView({ user: 'U0ADA', viewId: viewId! });
      }
      expect(inside.seen).toEqual([]);
    } finally {
      await inside.close();
    }
    const kept = await rig.store.getTenantSecret('T0ACME', 'service-account');
    expect(kept?.facts).toMatchObject({ baseUrl: rig.emulators.acme.url });
  });

  it('counts a token as working only when the service read the account with it (a 403 does not)', async () => {
    // Acme's own service answers its list with a 403 this once (a proxy in front of it, say).
    await emulatorControl(rig.emulators.acme.url)('POST', 'faults', {
      method: 'GET',
      path: '/workspace$',
      status: 403,
      count: 1,
    });
    const before = (await rig.store.getTenantSecret('T0ACME', 'service-account'))?.savedAt;
    const { viewId } = await openSetup('U0ADA', 'C0ACME');
    const sent = await setAcme(viewId!, rig.emulators.acme.url);
    expect(sent.errors?.setup_token ?? '(kept)').toMatch(
      /did not let this token read the account \(HTTP 403\)/,
    );
    await rig.slack.closeView({ user: 'U0ADA', viewId: viewId! });
    expect((await rig.store.getTenantSecret('T0ACME', 'service-account'))?.savedAt).toBe(before);
  });
});

describe("people's own tokens stay with the service they were checked against", () => {
  it('sets them aside when the service changes: never sent to the new address, each person told once, the change audited', async () => {
    const people = emulatorControl(rig.emulators.acme.url);
    const { token } = (await people('POST', 'users', { name: 'anna', role: 'Manager' })) as { token: string };
    registerSecrets(token);
    const connected = await rig.connectToken('U0ANNA', 'C0ACME', token);
    expect(connected.errors).toBeUndefined();
    // An admin points the workspace at another service on the bot's own machine (allowed, as on-premises).
    const elsewhere = await listening('127.0.0.1', 200);
    const annaDms = dmsOf('U0ANNA').at(-1)?.ts ?? '0';
    const alfDms = dmsOf('U0ALF').at(-1)?.ts ?? '0';
    try {
      const { viewId, said } = await openSetup('U0ADA', 'C0ACME');
      expect(viewId, said).toBeDefined();
      const moved = await rig.slack.submitView({
        user: 'U0ADA',
        viewId: viewId!,
        values: {
          setup_base_url: { setup_base_url_input: elsewhere.url },
          setup_account_id: { setup_account_id_input: '1000000000000000666' },
          setup_token: { setup_token_input: 'the-other-services-token-0123' },
        },
      });
      expect(moved.errors).toBeUndefined();
      const asked = await answer(
        `workspace show ${W}`,
        'U0ANNA',
        'C0ACME',
        /Pump station A|worked with before|1030000000000000001/,
      );
      // Her own token never reaches the new address; she is told why nothing was sent.
      expect(elsewhere.seen.map((s) => s.authorization)).not.toContain(`Bearer ${token}`);
      expect(elsewhere.seen.every((s) => s.authorization === 'Bearer the-other-services-token-0123')).toBe(
        true,
      );
      expect(full(asked)).toMatch(
        /your own token was connected for the service account this Slack workspace worked with before/,
      );
      // Anna is told once, privately; Alf, an owner of the workspace, is told who changed it.
      const told = await rig.slack.waitFor(() => {
        const dms = dmsOf('U0ANNA', annaDms).filter((m) => /set aside/.test(full(m)));
        return dms.length ? dms : undefined;
      });
      expect(told).toHaveLength(1);
      expect(buttonsOf(told[0] as LocalMessage)).toContain('identity_connect');
      const owner = await rig.slack.waitFor(() =>
        dmsOf('U0ALF', alfDms).find((m) => full(m).includes('1000000000000000666')),
      );
      expect(full(owner)).toContain('<@U0ADA> connected this Slack workspace');
      const [line] = await rig.store.listAudit({
        teamId: 'T0ACME',
        operationPrefixes: ['tenant.connect'],
        limit: 1,
      });
      expect(line).toMatchObject({ userId: 'U0ADA', outcome: 'ok' });
      expect(line?.params).toMatchObject({
        url: elsewhere.url,
        previous: { url: rig.emulators.acme.url, account: '1000000000000000101' },
        peopleTokensSetAside: 1,
        via: 'setup-form',
      });
    } finally {
      await elsewhere.close();
      // Pointed back where Anna's token was checked, it works again, and nobody is told of tokens set aside.
      const { viewId } = await openSetup('U0ADA', 'C0ACME');
      expect((await setAcme(viewId!, rig.emulators.acme.url)).errors).toBeUndefined();
    }
    const again = await answer(
      `workspace show ${W}`,
      'U0ANNA',
      'C0ACME',
      /Pump station A|worked with before/,
    );
    expect(full(again)).toContain('Pump station A');
    expect((await serviceLog('acme')).at(-1)?.user).toBe('anna');
  });
});

describe("admin is Slack's word, for the installation's scope, at the moment of acting", () => {
  it("on an org-wide install only the organisation's admins change its account; a workspace's admin does not", async () => {
    await rig.install({ enterpriseId: 'E0INITECH' }, 'W0NINA');
    // Whoever installed it sets up an organisation that has no account yet.
    expect((await rig.setUp('W0NINA', 'C0NORTH', 'initech')).errors).toBeUndefined();
    const nora = await openSetup('W0NORA', 'C0NORTH');
    expect(nora.viewId).toBeUndefined();
    expect(nora.said).toMatch(/only an admin or owner of the organisation/);
    const olga = await openSetup('W0OLGA', 'C0NORTH');
    expect(olga.viewId).toBeDefined();
    await rig.slack.closeView({ user: 'W0OLGA', viewId: olga.viewId! });
    // Having connected it, Nina installed it and nothing more: she is no admin of the organisation.
    const nina = await openSetup('W0NINA', 'C0NORTH');
    expect(nina.said).toMatch(/only an admin or owner of the organisation/);
  });

  it("refuses a Slack Connect admin of another organisation, and the workspace's guests", async () => {
    const gina = await openSetup('U0GINA', 'C0CONNECT', 'T0ACME');
    expect(gina.viewId).toBeUndefined();
    expect(gina.said).toMatch(/Slack says you are not a member of this Slack workspace/);
    const gus = await openSetup('U0GUS', 'C0ACME');
    expect(gus.said).toMatch(/Guests of a Slack workspace do not connect it/);
  });

  it('grants nothing to whoever installs the app again over a connected workspace', async () => {
    await rig.install({ teamId: 'T0ACME' }, 'U0ARNE');
    const arne = await openSetup('U0ARNE', 'C0ACME');
    expect(arne.viewId).toBeUndefined();
    expect(arne.said).toMatch(/Only the admins and owners of this Slack workspace connect it/);
    expect((await rig.store.getTenantSecret('T0ACME', 'service-account'))?.facts).toMatchObject({
      baseUrl: rig.emulators.acme.url,
    });
  });
});

describe('a removal is compared with what is installed now', () => {
  it('changes nothing on a removal made for an earlier installation, delivered after the app was installed again', async () => {
    const earlier = rig.slack.installs().find((i) => i.installed && i.teamId === 'T0GLOBEX')!;
    await rig.install({ teamId: 'T0GLOBEX' }, 'U0GREG');
    const now = rig.slack.installs().find((i) => i.installed && i.teamId === 'T0GLOBEX')!;
    expect(now.token).not.toBe(earlier.token);
    const madeBefore = Math.floor(Date.now() / 1000) - 3600;
    const deliveries = [
      await rig.slack.sendEvent(
        { type: 'app_uninstalled' },
        { install: earlier, eventTime: madeBefore, retryNum: 1 },
      ),
      await rig.slack.sendEvent(
        { type: 'tokens_revoked', tokens: { oauth: [], bot: ['U0BOTSOMEONEELSE'] } },
        { install: now },
      ),
    ];
    for (const d of deliveries) expect(d.status).toBe(200);
    // Each removal is either set aside (and said in the log) or carried out (the installation deleted).
    await waitUntil(async () => {
      const setAside = rig.logs.filter((l) => l.includes('a removal of an earlier installation')).length;
      const gone = (await rig.store.getTenantSecret('T0GLOBEX', 'installation')) === null;
      expect(setAside === 2 || gone).toBe(true);
    });
    expect(await rig.store.getTenantSecret('T0GLOBEX', 'installation')).not.toBeNull();
    expect(await rig.store.getTenantSecret('T0GLOBEX', 'service-account')).not.toBeNull();
    const greg = await answer(`workspace show ${W}`, 'U0GREG', 'C0GLOBEX', /Pump station A|service account/);
    expect(full(greg)).toContain('Pump station A');
  });
});

describe('each surface is audited under its own name', () => {
  it('audits a next-step button as the button it is, not as a typed command', async () => {
    const anna = await answer(learn('acme-next'), 'U0ANNA', 'C0ACME', /acme-next/);
    const id = /\b(14\d{17})\b/.exec(full(anna))![1]!;
    await finish('acme', id);
    const end = await rig.slack.waitFor(
      () =>
        rig.slack
          .messages('C0ACME')
          .find((m) => buttonsOf(m).includes(FLOW_ACTION['live-start']!) && full(m).includes(id)),
      60_000,
      'the end of the flow, with its next steps',
    );
    const button = (end.blocks as { type: string; elements?: { action_id?: string; value?: string }[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === FLOW_ACTION['live-start'])!;
    await rig.slack.clickButton({
      user: 'U0ANNA',
      channel: 'C0ACME',
      messageTs: end.ts,
      actionId: FLOW_ACTION['live-start']!,
      value: button.value,
    });
    const filed = await waitUntil(async () => {
      const [line] = await rig.store.listAudit({
        teamId: 'T0ACME',
        operationPrefixes: ['approval.request'],
        limit: 1,
      });
      expect(line?.userId).toBe('U0ANNA');
      expect(JSON.stringify(line?.params)).not.toContain('night');
      return line!;
    });
    expect(filed.params.via).toBe('button');
    const typed = (await rig.store.listAudit({ teamId: 'T0ACME', operationPrefixes: ['flow.'] })).find((l) =>
      JSON.stringify(l.params).includes('acme-next'),
    );
    expect(typed?.params.via).toBe('command');
  });
});

import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APPROVAL_ACTION } from '../../src/slack/approvals/card.js';
import type { Store } from '../../src/store/index.js';
import { PostgresStore } from '../../src/store/postgres.js';
import type { LoggedRequest } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import { emulatorControl } from '../support/emulator.js';
import { databaseForThisSuite, describePg, type FreshDatabase } from '../support/fixtures/store.js';
import { type InstallsRig, startInstallsRig } from '../support/installs-rig.js';
import { keepForScan, registerSecrets } from '../support/logs.js';
import { waitUntil } from '../support/patience.js';

/*
 * A team outgrows the SQLite default: its bot ("Add to Slack", installed in Acme, connected to Acme's
 * service account) has a live start waiting for approval, a nightly schedule, Anna's own token and the
 * audit of all that. The bot is stopped, `npm run store:move` (the built command, as an operator runs it)
 * moves the SQLite file to a real PostgreSQL server, and the bot started on it with the same key shows
 * and acts on every one of them.
 */

const W = '1030000000000000001';
const MODEL = '1070000000000000003';
const SIGNALS = '1050000000000000001:temperature';
const NIGHTLY = `schedule "every day at 06:00 in UTC" learn workspace=${W} signals=${SIGNALS} range="2026-11-01 to 2026-11-03" name="acme-nightly"`;
const MOVE = resolve(import.meta.dirname, '../../dist/src/store-move.js');

const text = (m: { text: string; blocks?: unknown[] } | undefined) =>
  `${m?.text} ${JSON.stringify(m?.blocks ?? [])}`;

describePg('moving a running team from SQLite to PostgreSQL', () => {
  let rig: InstallsRig;
  let db: FreshDatabase;
  let moved: Store;
  databaseForThisSuite((d) => {
    db = d;
  });
  beforeAll(async () => {
    rig = await startInstallsRig({ env: { TSAI_APPROVERS: 'U0ARNE', TSAI_TRACK_FIRST_POLL: '30s' } });
  });
  afterAll(async () => {
    await moved?.close();
    await rig?.close();
  });

  const acmeLog = async () =>
    ((await emulatorControl(rig.emulators.acme.url)('GET', 'requests')) as LoggedRequest[]).filter((r) =>
      r.path.startsWith('/api/'),
    );
  const flowPosts = async (flowType: string) =>
    (await acmeLog()).filter(
      (r) =>
        r.method === 'POST' &&
        r.path.endsWith('/flows') &&
        (r.body as { flowType?: string }).flowType === flowType,
    );
  /** `/tsai <command>` from `user` in #acme-ops, and the bot's first message after it, seen by them, that matches. */
  const answer = async (command: string, user: string, matching: RegExp): Promise<string> => {
    const before = new Set(rig.slack.messages('C0ACME', { user }).map((m) => m.ts));
    expect((await rig.slack.sendCommand({ user, channel: 'C0ACME', text: command })).status).toBe(200);
    const m = await rig.slack.waitFor(
      () =>
        rig.slack
          .messages('C0ACME', { user })
          .find(
            (x) => !before.has(x.ts) && x.user !== user && x.kind !== 'command' && matching.test(text(x)),
          ),
      60_000,
      `the answer to /tsai ${command}`,
    );
    return text(m);
  };
  const card = (): LocalMessage | undefined =>
    rig.slack
      .messages('C0ACME')
      .find((m) => JSON.stringify(m.blocks ?? []).includes(APPROVAL_ACTION.approve));

  it('moves with the bot stopped: every table copied and verified, nothing secret printed', async () => {
    await rig.install({ teamId: 'T0ACME' }, 'U0ANNA');
    expect((await rig.setUp('U0ANNA', 'C0ACME', 'acme')).errors).toBeUndefined();
    const { token } = (await emulatorControl(rig.emulators.acme.url)('POST', 'users', {
      name: 'anna',
      role: 'Manager',
    })) as { token: string };
    registerSecrets(token);
    await rig.slack.sendCommand({ user: 'U0ANNA', channel: 'C0ACME', text: 'connect' });
    const form = await rig.slack.waitFor(() => {
      const v = rig.slack.topView('U0ANNA');
      return v?.view.callback_id === 'identity_connect_form' ? v : undefined;
    });
    const connected = await rig.slack.submitView({
      user: 'U0ANNA',
      viewId: form.id,
      values: { service_token: { service_token_input: token } },
    });
    expect(connected.errors).toBeUndefined();
    await rig.slack.waitFor(
      () => rig.slack.messages('C0ACME', { user: 'U0ANNA' }).find((m) => /You are connected/.test(m.text)),
      60_000,
      'the word that Anna is connected',
    );
    await answer(`live start ${MODEL} reason="before the move"`, 'U0ANNA', /is waiting for approval/);
    await rig.slack.waitFor(card, 60_000, 'the request’s card');
    await answer(NIGHTLY, 'U0ANNA', /every day/i);
    const before = {
      approvals: await rig.store.listApprovals({ teamId: 'T0ACME' }),
      schedules: await rig.store.listSchedules({ teamId: 'T0ACME' }),
      audit: await rig.store.listAudit({ limit: 1000 }),
    };
    expect(before.approvals.map((a) => a.status)).toEqual(['pending']);
    expect(before.schedules).toHaveLength(1);

    await rig.running.stop();
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [
      MOVE,
      '--from',
      rig.config.databaseUrl,
      '--to',
      db.url,
    ]);
    keepForScan('store-move', stdout + stderr);
    expect(stdout).toContain('Verified: every table holds the same rows on both sides');
    for (const table of ['approvals', 'schedules', 'person_tokens', 'tenant_secrets', 'audit_log'])
      expect(stdout).toMatch(new RegExp(`\\n  ${table} +[1-9]`));
    for (const secret of [token, rig.emulators.acme.token, ...rig.config.secrets])
      expect(stdout + stderr).not.toContain(secret);

    moved = await PostgresStore.open(db.url);
    expect(await moved.listApprovals({ teamId: 'T0ACME' })).toEqual(before.approvals);
    expect(await moved.listSchedules({ teamId: 'T0ACME' })).toEqual(before.schedules);
    expect(await moved.listAudit({ limit: 1000 })).toEqual(before.audit);
  });

  it('the bot on PostgreSQL with the same key shows what waits, and approves the request filed before the move', async () => {
    await rig.restartBot({ DATABASE_URL: db.url });
    expect(await answer('approvals', 'U0ARNE', /./)).toContain('before the move');
    expect(await answer('schedules', 'U0ANNA', /./)).toContain('acme-nightly');
    expect(await answer('whoami', 'U0ANNA', /./)).toMatch(/You act as yourself: connected/);

    const waiting = card()!;
    const click = await rig.slack.clickButton({
      user: 'U0ARNE',
      channel: 'C0ACME',
      messageTs: waiting.ts,
      actionId: APPROVAL_ACTION.approve,
    });
    expect(click.status).toBe(200);
    await rig.slack.waitFor(
      () => {
        const m = rig.slack.messages('C0ACME').find((x) => x.ts === waiting.ts);
        return /Approved and executed/.test(text(m)) ? m : undefined;
      },
      60_000,
      'the request approved and executed',
    );
    expect(await flowPosts('STARTLIVEMODEL')).toHaveLength(1);
    const [request] = await moved.listApprovals({ teamId: 'T0ACME' });
    expect(request?.status).toBe('executed');
  });

  it('a connected person still acts as themselves, and the schedule runs once', async () => {
    const from = (await acmeLog()).length;
    expect(await answer(`workspace show ${W}`, 'U0ANNA', /./)).toContain('Pump station A');
    const reads = (await acmeLog()).slice(from).filter((r) => r.path.endsWith(`/workspace/${W}`));
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) expect(r.user).toBe('anna');

    rig.clock.set(Date.UTC(2026, 10, 23, 6, 0, 20));
    const [run] = await waitUntil(async () => {
      const learns = (await flowPosts('ANOMALYLEARN')).filter((r) =>
        JSON.stringify(r.body).includes('acme-nightly'),
      );
      expect(learns).toHaveLength(1);
      return learns;
    });
    expect(run!.user).toBe('anna');
    const [schedule] = await waitUntil(async () => {
      const s = await moved.listSchedules({ teamId: 'T0ACME' });
      expect(s[0]?.lastOutcome).toBeTruthy();
      return s;
    });
    expect(schedule?.lastRunAt).toBe(Date.UTC(2026, 10, 23, 6));
    expect(
      (await flowPosts('ANOMALYLEARN')).filter((r) => JSON.stringify(r.body).includes('acme-nightly')),
    ).toHaveLength(1);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { PostgresStore } from '../../src/store/postgres.js';
import { type LoggedRequest, SEED } from '../../standins/emulator/index.js';
import { OPS, REQUESTER, type Rig, startRig } from '../support/approvals-rig.js';
import { type BotProcess, prepareBotProgram, startBotProcess } from '../support/bot-process.js';
import { emulatorControl } from '../support/emulator.js';
import { databaseForThisSuite, describePg, type FreshDatabase } from '../support/fixtures/store.js';

const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const SCHEDULES = 120;
const name = (i: number) => `sched-run-${String(i).padStart(3, '0')}`;
const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

async function until<T>(check: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`not reached within ${ms} ms: ${what}`);
    await pause(200);
  }
}

/*
 * Two bot processes on one PostgreSQL database, each running due schedules; one gets SIGKILL while its
 * runs are in flight. Every planned run is claimed once: no learn reaches the service twice, the survivor
 * takes over what the dead one had leased but not claimed, and what the dead one had claimed is never
 * run again.
 */
describePg('two replicas running the same due schedules, one killed mid-run', () => {
  let rig: Rig;
  let db: FreshDatabase;
  databaseForThisSuite((d) => {
    db = d;
  });
  let program: Awaited<ReturnType<typeof prepareBotProgram>>;
  let store: Store;
  const procs: BotProcess[] = [];
  const serviceLog: LoggedRequest[] = [];
  let logTimer: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    program = await prepareBotProgram();
    rig = await startRig({
      databaseUrl: db.url,
      flowDelays: { runningAfterMs: 1_000, completedAfterMs: 60_000 },
    });
    store = await PostgresStore.open(db.url);
    const control = emulatorControl(rig.emulator.url);
    logTimer = setInterval(async () => {
      const since = serviceLog.at(-1)?.seq ?? 0;
      const fresh = (await control('GET', `requests?since=${since}`).catch(() => [])) as LoggedRequest[];
      serviceLog.push(...fresh.filter((r) => r.path.startsWith('/api/')));
    }, 300);
  });
  afterAll(async () => {
    clearInterval(logTimer);
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) await p.stop();
    await store?.close();
    await rig?.close();
    await program?.cleanup();
  });

  it('runs each planned run exactly once', async () => {
    const control = emulatorControl(rig.emulator.url);
    // Creations are slow, so the killed replica has runs in flight.
    await control('POST', 'faults', { method: 'POST', path: '/flows$', latencyMs: 700 });
    // One planned instant each, a minute ago (within the catch-up time), on a pattern that comes once a year.
    const due = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
    const d = new Date(due);
    const pattern = `${d.getUTCMinutes()} ${d.getUTCHours()} ${d.getUTCDate()} ${d.getUTCMonth() + 1} *`;
    const ids: string[] = [];
    for (let i = 0; i < SCHEDULES; i++) {
      const s = await store.createSchedule({
        teamId: 'T0TEAM',
        channelId: OPS,
        ownerId: REQUESTER,
        name: name(i),
        kind: 'command',
        command: `learn workspace=${W} signals=${T}:temperature range="2026-11-20 to 2026-11-21" name=${name(i)}`,
        whenText: pattern,
        rule: { pattern },
        timeZone: 'UTC',
        status: 'active',
        createdAt: due - 60_000,
        nextRunAt: due,
      });
      ids.push(s.id);
    }
    const env = {
      ...rig.env(),
      LOG_LEVEL: 'debug',
      TSAI_TRACK_LEASE: '10s',
      TSAI_APPROVAL_INTERRUPTED_AFTER: '10s',
    };
    procs.push(
      ...(await Promise.all([startBotProcess(program.dir, env), startBotProcess(program.dir, env)])),
    );

    // Mid-run: some learns have reached the service, most have not.
    const learns = () =>
      serviceLog.filter((r) => r.method === 'POST' && /sched-run-/.test(JSON.stringify(r.body)));
    await until(async () => (learns().length >= 10 ? true : undefined), 60_000, 'runs under way');
    const runs = () => store.listScheduleRuns({ scheduleIds: ids, limit: 1000 });
    // The replica with runs in flight (claimed, not finished) is the one killed.
    const inFlight = (await runs()).filter((r) => r.state === 'claimed').map((r) => r.claimedBy);
    const victim = procs.find((p) => inFlight.some((c) => p.output().includes(c))) ?? procs[0]!;
    victim.child.kill('SIGKILL');
    const dead = inFlight.find((c) => victim.output().includes(c));
    expect(dead).toBeDefined();

    // Every schedule's one planned run is claimed; whatever the survivor claimed has finished.
    const settled = await until(
      async () => {
        const all = await runs();
        if (all.length !== SCHEDULES) return undefined;
        const open = all.filter((r) => r.state === 'claimed' && r.claimedBy !== dead);
        return open.length === 0 ? all : undefined;
      },
      120_000,
      'every planned run claimed and the survivor’s finished',
    );
    await pause(1_500);
    const sent = new Map<string, number>();
    for (const r of learns()) {
      const n = /sched-run-\d{3}/.exec(JSON.stringify(r.body))![0];
      sent.set(n, (sent.get(n) ?? 0) + 1);
    }
    // Never twice; every run the store says was made reached the service once.
    expect([...sent.values()].filter((n) => n > 1)).toEqual([]);
    const byId = new Map(ids.map((id, i) => [id, name(i)]));
    for (const r of settled) {
      expect(r.plannedAt).toBe(due);
      if (r.state === 'ok') expect(sent.get(byId.get(r.scheduleId)!)).toBe(1);
    }
    expect(settled.filter((r) => r.state === 'ok').length).toBeGreaterThan(0);
    // The killed replica had runs in hand: they stay claimed until a survivor marks them outcome unknown,
    // and are never run a second time.
    const cut = settled.filter((r) => r.claimedBy === dead && r.state !== 'ok');
    expect(cut.length).toBeGreaterThan(0);
    for (const r of cut) expect(['claimed', 'unknown']).toContain(r.state);
    // Both replicas ran some, or the survivor took over what the dead one had leased.
    const survivors = new Set(settled.filter((r) => r.state === 'ok').map((r) => r.claimedBy));
    expect(survivors.size).toBeGreaterThanOrEqual(1);
    // Nothing runs again once the leases are long gone.
    await pause(2_000);
    expect((await runs()).length).toBe(SCHEDULES);
    expect(learns().length).toBe([...sent.values()].reduce((a, b) => a + b, 0));
    const states: Record<string, number> = {};
    for (const r of settled) states[r.state] = (states[r.state] ?? 0) + 1;
    console.log(
      `${JSON.stringify(states)} schedules: ${SCHEDULES}, learns sent: ${learns().length}, runs ok: ${settled.filter((r) => r.state === 'ok').length}, cut off with the killed replica: ${cut.length}`,
    );
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import {
  APPROVALS,
  buttonsOf,
  CROWD,
  type Rig,
  requestIdOf,
  startRig,
  textOf,
} from '../support/approvals-rig.js';
import { type BotProcess, prepareBotProgram, startBotProcess } from '../support/bot-process.js';
import { databaseForThisSuite, describePg, type FreshDatabase } from '../support/fixtures/store.js';

describePg('two bot replicas on one PostgreSQL database', () => {
  let rig: Rig;
  let db: FreshDatabase;
  databaseForThisSuite((d) => {
    db = d;
  });
  beforeAll(async () => {
    rig = await startRig({ databaseUrl: db.url });
    // Started at the same moment: migrations are serialised by the advisory lock.
    await Promise.all([rig.startBot(), rig.startBot()]);
  });
  afterAll(async () => {
    await rig?.close();
  });

  async function fileRequest(text: string): Promise<LocalMessage> {
    const before = rig.requestMessage()?.ts;
    await rig.command(text);
    return rig.slack.waitFor(() => {
      const m = rig.requestMessage();
      return m && m.ts !== before ? m : undefined;
    }, 5000);
  }

  it('both replicas answer, and both use the same store', async () => {
    expect(rig.bots.map((b) => b.bot.store.kind)).toEqual(['postgres', 'postgres']);
    const message = await fileRequest(`live stop ${SEED.models.temperatureAnomaly}`);
    const id = requestIdOf(message);
    const seen = await Promise.all(rig.bots.map((b) => b.bot.store.getApproval(id)));
    expect(seen.map((r) => r?.status)).toEqual(['pending', 'pending']);
  });

  it('20 concurrent Approve clicks spread over both replicas create exactly one flow', async () => {
    const model = SEED.models.pressureCommon;
    const message = await fileRequest(`live start ${model} reason="two replicas"`);
    const acks = await Promise.all(CROWD.map((user) => rig.click(user, message, 'approve')));
    expect(acks.every((a) => a.status === 200)).toBe(true);
    const done = await rig.slack.waitFor(() => {
      const m = rig.slack.messages(APPROVALS).find((x) => x.ts === message.ts);
      return m && /Approved and executed/.test(textOf(m)) ? m : undefined;
    }, 5000);
    expect(buttonsOf(done)).toEqual([]);
    expect((await rig.liveFlows()).filter((f) => f.model === model)).toHaveLength(1);
    const winner = CROWD.find((u) => textOf(done).includes(`<@${u}>`));
    expect(winner).toBeDefined();
    for (const user of CROWD.filter((u) => u !== winner)) {
      const told = await rig.slack.waitFor(
        () =>
          rig
            .seen(user, APPROVALS)
            .find((m) => m.ephemeralTo === user && /already approved by/.test(textOf(m))),
        5000,
      );
      expect(textOf(told)).toContain(`<@${winner}>`);
    }
    const decisions = await rig.bots[1]!.bot.store.listAudit({
      operationPrefixes: ['approval.approve', 'flow.'],
    });
    expect(
      decisions
        .filter((e) => e.requestId === requestIdOf(message))
        .map((e) => e.operation)
        .sort(),
    ).toEqual(['approval.approve', 'flow.STARTLIVEMODEL']);
  });
});

describePg('two bot processes on one PostgreSQL database', () => {
  let rig: Rig;
  let db: FreshDatabase;
  databaseForThisSuite((d) => {
    db = d;
  });
  let program: Awaited<ReturnType<typeof prepareBotProgram>>;
  const procs: BotProcess[] = [];
  beforeAll(async () => {
    program = await prepareBotProgram();
    rig = await startRig({ databaseUrl: db.url });
    const env = { ...rig.env(), BOT_NOW_MS: String(rig.clock.now().getTime()) };
    procs.push(
      ...(await Promise.all([startBotProcess(program.dir, env), startBotProcess(program.dir, env)])),
    );
    for (const p of procs) rig.addBackend(p.port);
  });
  afterAll(async () => {
    for (const p of procs) await p.stop().catch(() => undefined);
    await rig?.close();
    await program?.cleanup();
  });

  it('20 concurrent Approve clicks over two processes create exactly one flow', async () => {
    const model = SEED.models.temperatureCommon;
    await rig.command(`live start ${model} reason="two processes"`);
    const message = await rig.slack.waitFor(() => rig.requestMessage(), 5000);
    const acks = await Promise.all(CROWD.map((user) => rig.click(user, message, 'approve')));
    expect(acks.every((a) => a.status === 200)).toBe(true);
    const done = await rig.slack.waitFor(() => {
      const m = rig.slack.messages(APPROVALS).find((x) => x.ts === message.ts);
      return m && /Approved and executed/.test(textOf(m)) ? m : undefined;
    }, 10_000);
    expect(buttonsOf(done)).toEqual([]);
    const winner = CROWD.find((u) => textOf(done).includes(`<@${u}>`));
    for (const user of CROWD.filter((u) => u !== winner)) {
      await rig.slack.waitFor(
        () =>
          rig
            .seen(user, APPROVALS)
            .find((m) => m.ephemeralTo === user && /already approved by/.test(textOf(m))),
        5000,
      );
    }
    expect((await rig.liveFlows()).filter((f) => f.model === model)).toHaveLength(1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { SEED } from '../../standins/emulator/index.js';
import {
  APPROVALS,
  APPROVER,
  buttonsOf,
  OPS,
  REQUESTER,
  type Rig,
  requestIdOf,
  startRig,
  textOf,
} from '../support/approvals-rig.js';
import { type BotProcess, prepareBotProgram, startBotProcess } from '../support/bot-process.js';
import { emulatorControl } from '../support/emulator.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../support/harness.js';
import { waitUntil } from '../support/patience.js';

const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const P = SEED.signals.pressure;

/** JSON log lines of the bot process, parsed. */
function logLines(proc: BotProcess): Record<string, unknown>[] {
  return proc
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

// The bot as `npm start` runs it, in a separate process with the real clock: listeners ack on the main
// thread and their follow-ups run on the worker thread, with its own clients and store.
describe('the bot as its own process', () => {
  let rig: Rig;
  let program: Awaited<ReturnType<typeof prepareBotProgram>>;
  let proc: BotProcess;
  beforeAll(async () => {
    program = await prepareBotProgram();
    rig = await startRig();
    const env: Record<string, string> = { ...rig.env(), LOG_LEVEL: 'info' };
    proc = await startBotProcess(program.dir, env);
    rig.addBackend(proc.port);
  });
  afterAll(async () => {
    await proc?.stop();
    await rig?.close();
    await program?.cleanup();
  });

  it('a learn command runs on the worker: the flow reaches the service and the reply carries its ID', async () => {
    const reply = await rig.command(
      `learn workspace=${W} signals=${T}:temperature,${P} range="last 3 days" model-name="worker model" name="worker learn"`,
    );
    const flows = (await rig.serviceRequests()).filter(
      (r) =>
        r.method === 'POST' &&
        r.path.endsWith('/flows') &&
        (r.body as { name?: string }).name === 'worker learn',
    );
    expect(flows).toHaveLength(1);
    expect(flows[0]!.status).toBe(201);
    expect(textOf(reply)).toContain('worker learn');
    expect(textOf(reply)).toContain('ANOMALYLEARN');
    const handled = await waitUntil(
      () => {
        const line = logLines(proc).find((l) => l.msg === 'operation handled' && l.op === 'learn');
        if (!line) throw new Error('no "operation handled" line yet');
        return line;
      },
      { timeout: 5000 },
    );
    expect(handled.thread).toBe('follow-ups');
  });

  it('live start is filed and approved on the worker, and runs once', async () => {
    const model = SEED.models.pressureCommon;
    await rig.command(`live start ${model} reason="worker thread"`, { user: REQUESTER, channel: OPS });
    const message = await rig.slack.waitFor(() => rig.requestMessage(), 5000);
    expect(buttonsOf(message).length).toBeGreaterThan(0);
    const ack = await rig.click(APPROVER, message, 'approve');
    expect(ack.status).toBe(200);
    await rig.slack.waitFor(() => {
      const m = rig.slack.messages(APPROVALS).find((x) => x.ts === message.ts);
      return m && /Approved and executed/.test(textOf(m)) ? m : undefined;
    }, 5000);
    expect((await rig.liveFlows()).filter((f) => f.model === model)).toHaveLength(1);
    const store = await openStore(rig.databaseUrl);
    try {
      const filed = await store.getApproval(requestIdOf(message));
      expect(filed?.requesterId).toBe(REQUESTER);
      expect(filed?.status).toBe('executed');
    } finally {
      await store.close();
    }
  });

  it('learn with missing arguments opens its modal from the worker, within the trigger deadline', async () => {
    await rig.slack.sendCommand({ user: REQUESTER, channel: OPS, text: 'learn', command: '/tsai' });
    const view = await rig.slack.waitFor(() => rig.slack.topView(REQUESTER), 3000, 'the learn modal');
    expect(JSON.stringify(view)).toContain('learn');
  });

  it('no secret reaches the log, from either thread', () => {
    const out = proc.output();
    expect(out.length).toBeGreaterThan(0);
    for (const secret of [BOT_TOKEN, SIGNING_SECRET, rig.env().TSAI_TOKEN!])
      expect(out).not.toContain(secret);
  });

  it('stopping the bot lets the worker finish the command in hand and reply', async () => {
    await emulatorControl(rig.emulator.url)('POST', 'faults', {
      method: 'POST',
      path: '/flows$',
      latencyMs: 800,
      count: 1,
    });
    const delivery = await rig.slack.sendCommand({
      user: REQUESTER,
      channel: OPS,
      text: `learn workspace=${W} signals=${T}:temperature range="last 2 days" name="in hand at stop"`,
      command: '/tsai',
    });
    expect(delivery.status).toBe(200);
    // The flow request is in the service's hands (held 800 ms) when the stop begins.
    await new Promise((r) => setTimeout(r, 300));
    await proc.stop();
    const reply = rig.slack
      .messages(OPS, { user: REQUESTER })
      .find((m) => m.kind !== 'command' && textOf(m).includes('in hand at stop'));
    expect(reply).toBeDefined();
  });
});

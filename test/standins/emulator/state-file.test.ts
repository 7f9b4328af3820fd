import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/api/index.js';
import { type RunningEmulator, SEED, startEmulator } from '../../../standins/emulator/index.js';
import { emulatorControl, eventually } from '../../support/emulator.js';
import { type NamedClient, named } from '../../support/service-calls.js';

const inline = {
  name: 'November baseline',
  specs: [
    {
      timeRanges: [{ startTime: '2025-11-01T00:00:00Z', endTime: '2025-11-08T00:00:00Z' }],
      signals: [{ signal: SEED.signals.temperature, name: 'temperature' }],
    },
  ],
};
/** Flows that go RUNNING at once and would end only in an hour: a restart comes first. */
const SLOW = { runningAfterMs: 0, completedAfterMs: 3_600_000 };
const QUICK = { runningAfterMs: 0, completedAfterMs: 0 };

type Rec = { id: string; [k: string]: unknown };

/** The emulator with a state file, restarted as `npm start` restarts it: a new process, the same file. */
describe('the emulator keeps its world in a state file across restarts', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const tempFile = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-emulator-state-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return join(dir, 'world.json');
  };
  const start = async (o: Parameters<typeof startEmulator>[0]) => {
    const emu = await startEmulator({ port: 0, ...o });
    const client = named(
      createServiceClient({ baseUrl: emu.url, accountId: emu.accountId, token: emu.token }),
    );
    let stopped: Promise<void> | undefined;
    const stop = () => {
      stopped ??= client.close().then(() => emu.close());
      return stopped;
    };
    cleanups.push(stop);
    return { emu, client, control: emulatorControl(emu.url), stop };
  };
  const learn = (client: NamedClient, name: string) =>
    client.anomalyLearn({ name, spec: { workspace: SEED.workspaces.pumpStation, dataspec: inline } });
  const flowIn = async (emu: RunningEmulator, id: string): Promise<Rec | undefined> => {
    const state = (await emulatorControl(emu.url)('GET', 'state')) as Record<string, Rec[]>;
    return state.flows!.find((f) => f.id === id);
  };

  it('a flow created before a restart ends after it, its model exists, and no ID is handed out twice', async () => {
    const file = tempFile();
    const first = await start({ stateFile: file, flowDelays: SLOW });
    const before = await learn(first.client, 'before the restart');
    await eventually(async () =>
      (await flowIn(first.emu, before.id))?.status === 'RUNNING' ? true : undefined,
    );
    await first.stop();

    const problems: string[] = [];
    const second = await start({
      stateFile: file,
      flowDelays: QUICK,
      onStateProblem: (p) => problems.push(p),
    });
    const ended = await eventually(async () => {
      const f = await flowIn(second.emu, before.id);
      return f?.status === 'COMPLETED' ? f : undefined;
    });
    const model = (ended.outputs as Rec[]).find((o) => o.type === 'entities.model')!;
    const state = (await second.control('GET', 'state')) as Record<string, Rec[]>;
    expect(state.models!.some((m) => m.id === model.id)).toBe(true);
    const after = await learn(second.client, 'after the restart');
    expect(BigInt(after.id)).toBeGreaterThan(BigInt(model.id));
    expect(problems).toEqual([]);
  });

  it('a flow told to stay RUNNING stays so after a restart; a reset empties the file of what was made', async () => {
    const file = tempFile();
    const first = await start({ stateFile: file, flowDelays: QUICK });
    await first.control('POST', 'flow-rules', { status: 'RUNNING', count: 1 });
    const held = await learn(first.client, 'held');
    await eventually(async () =>
      (await flowIn(first.emu, held.id))?.status === 'RUNNING' ? true : undefined,
    );
    await first.stop();

    const second = await start({ stateFile: file, flowDelays: QUICK });
    // A flow created after the restart completes on its own; the held one is still where it was told to be.
    const later = await learn(second.client, 'later');
    await eventually(async () =>
      (await flowIn(second.emu, later.id))?.status === 'COMPLETED' ? true : undefined,
    );
    expect((await flowIn(second.emu, held.id))?.status).toBe('RUNNING');

    await second.control('POST', 'reset');
    await second.stop();
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { nextId: string; records: Record<string, Rec[]> };
    // Back to the demo data: its one finished flow, nothing that was made.
    expect(kept.records.flows?.map((f) => f.id)).toEqual([SEED.flows.baselineLearn]);
    expect(BigInt(kept.nextId)).toBeGreaterThan(BigInt(later.id));
  });

  it('an unreadable state file is set aside and reported, and the emulator starts from its demo data', async () => {
    const file = tempFile();
    writeFileSync(file, '{"world": 1, "nextId": ');
    const problems: string[] = [];
    const { control } = await start({ stateFile: file, onStateProblem: (p) => problems.push(p) });
    expect(problems).toEqual([expect.stringContaining(`moved to ${file}.unreadable`)]);
    expect(existsSync(`${file}.unreadable`)).toBe(true);
    const state = (await control('GET', 'state')) as Record<string, Rec[]>;
    expect(state.workspaces!.map((w) => w.id)).toContain(SEED.workspaces.pumpStation);
  });

  it('a file written before a collection existed still loads: what it kept stays, the new collection starts as the demo data has it', async () => {
    const file = tempFile();
    const first = await start({ stateFile: file, flowDelays: QUICK });
    const made = await learn(first.client, 'kept across versions');
    await eventually(async () =>
      (await flowIn(first.emu, made.id))?.status === 'COMPLETED' ? true : undefined,
    );
    await first.stop();
    // As an older emulator wrote it: no Eval objects (none made) and no datastreams among its records.
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { records: Record<string, unknown> };
    delete kept.records.evals;
    delete kept.records.datastreams;
    writeFileSync(file, JSON.stringify(kept));

    const problems: string[] = [];
    const second = await start({ stateFile: file, onStateProblem: (p) => problems.push(p) });
    expect(problems).toEqual([]);
    expect(existsSync(`${file}.unreadable`)).toBe(false);
    expect((await flowIn(second.emu, made.id))?.status).toBe('COMPLETED');
    const state = (await second.control('GET', 'state')) as Record<string, Rec[]>;
    expect(state.evals).toEqual([]);
    expect(state.datastreams!.map((d) => d.id)).toEqual([SEED.datastream]);
    // The demo datastream is there to be used, as after a fresh start.
    const score = await second.client.createEvalFlow({
      name: 'after an upgrade',
      datastream: SEED.datastream,
      assessment: SEED.assessments.temperature,
      model: SEED.models.temperatureCommon,
      spec: {
        commonModelId: SEED.models.temperatureCommon,
        segments: [{ entities: ['pump-1'], timeRange: { startTime: '1', endTime: '2' } }],
        forLive: true,
        withEpisodes: true,
      },
    });
    expect(score.status).toBe('CREATED');
  });

  it('without a state file a restart starts from the demo data', async () => {
    const first = await start({ flowDelays: QUICK });
    const flow = await learn(first.client, 'forgotten');
    await first.stop();
    const second = await start({});
    expect(await flowIn(second.emu, flow.id)).toBeUndefined();
  });
});

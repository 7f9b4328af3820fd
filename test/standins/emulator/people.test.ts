import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/api/index.js';
import { SEED, startEmulator } from '../../../standins/emulator/index.js';
import { emulatorControl, eventually, type Harness, startHarness } from '../../support/emulator.js';
import { type NamedClient, named } from '../../support/service-calls.js';

const A = `/api/1.3/accounts/${SEED.accountId}`;
const A12 = `/api/1.2/accounts/${SEED.accountId}`;

type Rec = { id: string; [k: string]: unknown };

/** `POST /_emulator/users` with any body; the raw status and JSON answer. */
async function postUser(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const r = await fetch(`${url}/_emulator/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: r.status, json: await r.json() };
}

async function tokenFor(url: string, name: string, role: string): Promise<string> {
  const r = await postUser(url, { name, role });
  expect(r.status).toBe(201);
  return (r.json as { token: string }).token;
}

const inlineDataspec = {
  name: 'November baseline',
  specs: [
    {
      timeRanges: [{ startTime: '2025-11-01T00:00:00Z', endTime: '2025-11-08T00:00:00Z' }],
      signals: [{ signal: SEED.signals.temperature, name: 'temperature' }],
    },
  ],
};

describe('the emulator knows people, their tokens and their roles', () => {
  let h: Harness;
  const clients: NamedClient[] = [];
  const clientFor = (token: string) => {
    const c = named(
      createServiceClient({ baseUrl: h.emu.url, accountId: h.emu.accountId, token, maxAttempts: 1 }),
    );
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    h = await startHarness({}, { runningAfterMs: 0, completedAfterMs: 0 });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    await h.reset();
  });
  afterAll(() => h.close());

  it("a person's token works, the request log names them and never holds a token", async () => {
    const token = await tokenFor(h.emu.url, 'dora', 'User');
    expect(token).not.toBe(h.emu.token);
    const ws = await clientFor(token).createWorkspace({ name: 'Dora line' });
    expect(ws).toMatchObject({ createdBy: 'dora', updatedBy: 'dora' });
    await h.client.getWorkspace(ws.id);
    const none = await h.raw('GET', `${A}/workspace/${ws.id}`, undefined, 'not-a-token');
    const log = await h.requests();
    expect(log.map((r) => [r.method, r.status, r.user])).toEqual([
      ['POST', 201, 'dora'],
      ['GET', 200, 'tsai-bot'],
      ['GET', 401, null],
    ]);
    expect(none.status).toBe(401);
    const text = JSON.stringify(log);
    expect(text).not.toContain(token);
    expect(text).not.toContain(h.emu.token);
    expect(text).not.toContain('not-a-token');
  });

  it('a User reads and analyses but gets 403 naming the role needed to start, stop or move a model', async () => {
    const carol = clientFor(await tokenFor(h.emu.url, 'carol-test', 'User'));
    const flowsBefore = (await h.state()).flows!.length;
    await expect(carol.getWorkspace(SEED.workspaces.pumpStation)).resolves.toMatchObject({
      id: SEED.workspaces.pumpStation,
    });
    await expect(carol.findCommonModel(SEED.assessments.temperature)).resolves.toMatchObject({
      id: SEED.models.temperatureCommon,
    });
    const learn = await carol.anomalyLearn({
      name: 'carol learns',
      spec: { workspace: SEED.workspaces.pumpStation, dataspec: inlineDataspec },
    });
    const scoring = await carol.anomalyEval({
      name: 'carol scores',
      spec: {
        workspace: SEED.workspaces.pumpStation,
        model: SEED.models.temperatureAnomaly,
        dataspec: { id: SEED.dataspec },
        outputsignalPrefix: 'carol',
      },
    });
    const backfill = await carol.createEvalFlow({
      name: 'carol backfills',
      datastream: SEED.datastream,
      assessment: SEED.assessments.temperature,
      model: SEED.models.temperatureCommon,
      spec: {
        commonModelId: SEED.models.temperatureCommon,
        segments: [
          {
            entities: ['pump-1'],
            timeRange: { startTime: '1732176000000000000', endTime: '1732204800000000000' },
          },
        ],
        forLive: false,
        withEpisodes: false,
      },
    });
    for (const f of [learn, scoring, backfill])
      expect(f).toMatchObject({ status: 'CREATED', createdBy: 'carol-test' });

    const refusals = [
      () => carol.startLiveModel({ name: 'go live', model: SEED.models.pressureCommon }),
      () => carol.stopLiveModel({ name: 'stop', model: SEED.models.temperatureCommon }),
      () => carol.moveModel(SEED.models.temperatureAnomaly, SEED.workspaces.sandbox),
    ];
    for (const refused of refusals)
      await expect(refused()).rejects.toMatchObject({
        kind: 'http',
        status: 403,
        serviceMessage: expect.stringMatching(/needs the Manager or Owner role; carol-test is a User$/),
      });
    const live = await h.raw(
      'POST',
      `${A12}/flows`,
      { flowType: 'STARTLIVEMODEL', name: 'raw', spec: { model: SEED.models.pressureCommon } },
      undefined,
    );
    expect(live.status).toBe(201);
    const state = await h.state();
    expect(state.flows!).toHaveLength(flowsBefore + 4);
    expect(state.models!.find((m) => m.id === SEED.models.temperatureAnomaly)).toMatchObject({
      workspace: SEED.workspaces.pumpStation,
    });
    const refusedLog = (await h.requests()).filter((r) => r.status === 403);
    expect(refusedLog.map((r) => r.user)).toEqual(['carol-test', 'carol-test', 'carol-test']);
  });

  it('a Manager starts a live model; the flow and the model it changes carry the Manager as their author', async () => {
    const bob = clientFor(await tokenFor(h.emu.url, 'bob-test', 'Manager'));
    const flow = await bob.startLiveModel({ name: 'bob goes live', model: SEED.models.pressureCommon });
    expect(flow).toMatchObject({ createdBy: 'bob-test', updatedBy: 'bob-test' });
    const ended = await eventually(async () => {
      const f = (await h.state()).flows!.find((r) => r.id === flow.id);
      return f?.status === 'COMPLETED' ? f : undefined;
    });
    expect(ended).toMatchObject({ createdBy: 'bob-test', updatedBy: 'bob-test' });
    const model = (await h.state()).models!.find((m) => m.id === SEED.models.pressureCommon);
    expect(model).toMatchObject({ live: true, createdBy: SEED.principalId, updatedBy: 'bob-test' });
    await expect(
      bob.moveModel(SEED.models.temperatureAnomaly, SEED.workspaces.sandbox),
    ).resolves.toMatchObject({
      workspace: SEED.workspaces.sandbox,
      updatedBy: 'bob-test',
    });
  });

  it('naming a person again gives another token, keeps the first and changes the role; the list shows no token', async () => {
    const first = await tokenFor(h.emu.url, 'erin', 'User');
    const second = await tokenFor(h.emu.url, 'erin', 'Manager');
    expect(second).not.toBe(first);
    const users = await h.control('GET', 'users');
    expect(users).toEqual(
      expect.arrayContaining([
        { name: 'tsai-bot', role: 'Owner' },
        { name: 'erin', role: 'Manager' },
      ]),
    );
    expect(JSON.stringify(users)).not.toContain(first);
    expect(JSON.stringify(users)).not.toContain(second);
    for (const token of [first, second]) {
      const r = await h.raw(
        'POST',
        `${A12}/flows`,
        { flowType: 'STARTLIVEMODEL', name: 'erin', spec: { model: SEED.models.pressureCommon } },
        token,
      );
      expect(r.status).toBe(201);
    }
  });

  it('after DELETE every token of the person gets 401 with a message; the shared identity cannot be deleted', async () => {
    const first = await tokenFor(h.emu.url, 'frank', 'Owner');
    const second = await tokenFor(h.emu.url, 'frank', 'Owner');
    const gone = await fetch(`${h.emu.url}/_emulator/users/frank`, { method: 'DELETE' });
    expect(gone.status).toBe(204);
    for (const token of [first, second]) {
      const r = await h.raw('GET', `${A}/workspace/${SEED.workspaces.sandbox}`, undefined, token);
      expect(r).toEqual({ status: 401, json: { message: 'access token missing, invalid or expired' } });
    }
    expect((await h.control('GET', 'users')) as { name: string }[]).not.toContainEqual(
      expect.objectContaining({ name: 'frank' }),
    );
    const again = await fetch(`${h.emu.url}/_emulator/users/frank`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { message: string }).message).toContain('nobody named frank');
    const shared = await fetch(`${h.emu.url}/_emulator/users/tsai-bot`, { method: 'DELETE' });
    expect(shared.status).toBe(400);
    await expect(h.client.getWorkspace(SEED.workspaces.sandbox)).resolves.toMatchObject({
      id: SEED.workspaces.sandbox,
    });
  });

  it('the workspace list with limit=1 is the cheap read that tells whether a token works', async () => {
    const token = await tokenFor(h.emu.url, 'kim', 'User');
    const listed = await h.raw('GET', `${A}/workspace?limit=1`, undefined, token);
    expect(listed).toEqual({
      status: 200,
      json: {
        items: [expect.objectContaining({ id: SEED.workspaces.pumpStation })],
        offset: 0,
        limit: 1,
        total: 2,
      },
    });
    expect((await h.raw('GET', `${A}/workspace?offset=1`, undefined, token)).json).toMatchObject({
      items: [{ id: SEED.workspaces.sandbox }],
      offset: 1,
      limit: 100,
    });
    expect((await h.raw('GET', `${A}/workspace?limit=0`, undefined, token)).status).toBe(400);
    await fetch(`${h.emu.url}/_emulator/users/kim`, { method: 'DELETE' });
    expect((await h.raw('GET', `${A}/workspace?limit=1`, undefined, token)).status).toBe(401);
  });

  it('keeps the newest 50 tokens of a person: the oldest then gets 401, as an expired token would', async () => {
    const first = await tokenFor(h.emu.url, 'lee', 'User');
    const second = await tokenFor(h.emu.url, 'lee', 'User');
    for (let i = 0; i < 49; i++) await tokenFor(h.emu.url, 'lee', 'User');
    const read = (token: string) => h.raw('GET', `${A}/workspace?limit=1`, undefined, token);
    expect((await read(first)).status).toBe(401);
    expect((await read(second)).status).toBe(200);
  });

  it('a reset brings the records back but keeps the people and their tokens', async () => {
    const token = await tokenFor(h.emu.url, 'gina', 'User');
    await h.reset();
    expect((await h.raw('GET', `${A}/workspace/${SEED.workspaces.sandbox}`, undefined, token)).status).toBe(
      200,
    );
  });

  it('refuses bad bodies with 400 and a message naming what is wrong', async () => {
    const cases: [unknown, RegExp][] = [
      ['{"name": ', /not valid JSON/],
      [{ name: 'hank' }, /role/],
      [{ name: 'hank', role: 'Admin' }, /role: must be Owner, Manager or User/],
      [{ name: '', role: 'User' }, /name/],
      [{ name: 'a/b', role: 'User' }, /name/],
      [{ name: 'hank', role: 'User', token: 'mine' }, /token/],
      [{ name: 'tsai-bot', role: 'User' }, /shared identity/],
      [[], /expected object|object/i],
    ];
    for (const [body, message] of cases) {
      const r = await postUser(h.emu.url, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect((r.json as { message: string }).message).toMatch(message);
    }
    expect((await h.control('GET', 'users')) as { name: string }[]).not.toContainEqual(
      expect.objectContaining({ name: 'hank' }),
    );
  });
});

describe('people survive a restart with the state file', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('a state file written before the emulator knew people loads as it is, with nobody but the shared identity', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-emulator-people-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'world.json');
    const records = { workspaces: [{ id: '1400000000000000001', type: 'entities.workspace', name: 'Kept' }] };
    const empty = Object.fromEntries(
      ['datastreams', 'signals', 'assessments', 'models', 'dataspecs', 'flows', 'evals'].map((c) => [c, []]),
    );
    writeFileSync(
      file,
      JSON.stringify({
        world: 1,
        nextId: '1400000000000000002',
        records: { ...empty, ...records },
        endings: {},
      }),
    );
    const problems: string[] = [];
    const emu = await startEmulator({ port: 0, stateFile: file, onStateProblem: (p) => problems.push(p) });
    cleanups.push(() => emu.close());
    expect(problems).toEqual([]);
    expect(await emulatorControl(emu.url)('GET', 'users')).toEqual([{ name: 'tsai-bot', role: 'Owner' }]);
    const state = (await emulatorControl(emu.url)('GET', 'state')) as Record<string, Rec[]>;
    expect(state.workspaces!.map((w) => w.name)).toEqual(['Kept']);
  });

  it('tokens issued before a restart work after it, a revoked one stays revoked, and the file holds no token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-emulator-people-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'world.json');

    const first = await startEmulator({ port: 0, stateFile: file });
    cleanups.push(() => first.close());
    const ivy = await tokenFor(first.url, 'ivy', 'Manager');
    const jack = await tokenFor(first.url, 'jack', 'User');
    expect((await fetch(`${first.url}/_emulator/users/jack`, { method: 'DELETE' })).status).toBe(204);
    await first.close();
    const kept = readFileSync(file, 'utf8');
    expect(kept).toContain('"ivy"');
    expect(kept).not.toContain(ivy);
    expect(kept).not.toContain(jack);

    const second = await startEmulator({ port: 0, stateFile: file });
    cleanups.push(() => second.close());
    const get = (token: string) =>
      fetch(`${second.url}${A}/workspace/${SEED.workspaces.sandbox}`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await get(ivy)).status).toBe(200);
    expect((await get(jack)).status).toBe(401);
    expect(await emulatorControl(second.url)('GET', 'users')).toEqual([
      { name: 'tsai-bot', role: 'Owner' },
      { name: 'ivy', role: 'Manager' },
    ]);
    const log = (await emulatorControl(second.url)('GET', 'requests')) as Rec[];
    expect(log.map((r) => r.user)).toEqual(['ivy', null]);
  });
});

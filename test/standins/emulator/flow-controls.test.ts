import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FlowRecord } from '../../../src/api/index.js';
import { SEED } from '../../../standins/emulator/index.js';
import { eventually, type Harness, startHarness } from '../../support/emulator.js';

const A = `/api/1.3/accounts/${SEED.accountId}`;
const live = (name: string) => ({ name, model: SEED.models.pressureCommon });

async function readBack(h: Harness, id: string): Promise<FlowRecord> {
  const got = await h.client.getFlow(id);
  if (!got.supported) throw new Error('the emulator supports getFlow');
  return got.flow;
}

function untilStatus(h: Harness, id: string, status: string): Promise<FlowRecord> {
  return eventually(async () => {
    const flow = await readBack(h, id);
    return flow.status === status ? flow : undefined;
  });
}

async function post(h: Harness, path: string, body?: unknown) {
  const res = await fetch(`${h.emu.url}/_emulator/${path}`, {
    method: 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('ending a flow on request: POST /_emulator/flows/{id}/finish', () => {
  let h: Harness;
  /** Flows never end by themselves here: each test decides. */
  beforeAll(async () => {
    h = await startHarness({}, { runningAfterMs: 0, completedAfterMs: 3_600_000 });
  });
  beforeEach(() => h.reset());
  afterAll(() => h.close());

  it('FAILED with the given message: no effects, no outputs, a later updateTime in ms', async () => {
    const flow = await h.client.startLiveModel(live('go live'));
    const r = await post(h, `flows/${flow.id}/finish`, { status: 'FAILED', message: 'licence expired' });
    expect(r.status).toBe(200);
    const failed = await readBack(h, flow.id);
    expect(failed).toMatchObject({ status: 'FAILED', message: 'licence expired' });
    expect(failed).not.toHaveProperty('outputs');
    expect(Number(failed.updateTime)).toBeGreaterThanOrEqual(Number(failed.createTime));
    expect(String(failed.updateTime)).toHaveLength(13);
    const model = (await h.state()).models!.find((m) => m.id === SEED.models.pressureCommon);
    expect(model?.live).toBe(false);
  });

  it('FAILED without a message gets a default reason', async () => {
    const flow = await h.client.startLiveModel(live('go live'));
    await post(h, `flows/${flow.id}/finish`, { status: 'FAILED' });
    expect((await readBack(h, flow.id)).message).toMatch(/emulator/);
  });

  it('CANCELLED, with no message unless one is given', async () => {
    const a = await h.client.startLiveModel(live('a'));
    const b = await h.client.startLiveModel(live('b'));
    await post(h, `flows/${a.id}/finish`, { status: 'CANCELLED' });
    await post(h, `flows/${b.id}/finish`, { status: 'CANCELLED', message: 'cancelled by Alice' });
    expect(await readBack(h, a.id)).not.toHaveProperty('message');
    expect(await readBack(h, b.id)).toMatchObject({ status: 'CANCELLED', message: 'cancelled by Alice' });
  });

  it('an unknown status is held until the flow is finished, which then completes it with its effects', async () => {
    const flow = await h.client.startLiveModel(live('go live'));
    await post(h, `flows/${flow.id}/finish`, { status: 'WAITING_FOR_DATA' });
    expect((await readBack(h, flow.id)).status).toBe('WAITING_FOR_DATA');
    const r = await post(h, `flows/${flow.id}/finish`);
    expect(r.json).toMatchObject({ status: 'COMPLETED', outputs: [{ id: SEED.models.pressureCommon }] });
    expect((await readBack(h, flow.id)).status).toBe('COMPLETED');
  });

  it('an ended flow stays as it is: its own status again is 200, another is 409; unknown flow 404; bad body 400', async () => {
    const flow = await h.client.startLiveModel(live('go live'));
    expect((await post(h, `flows/${flow.id}/finish`)).status).toBe(200);
    expect((await post(h, `flows/${flow.id}/finish`)).json.status).toBe('COMPLETED');
    expect((await post(h, `flows/${flow.id}/finish`, { status: 'COMPLETED' })).status).toBe(200);
    const refused = await post(h, `flows/${flow.id}/finish`, { status: 'FAILED', message: 'too late' });
    expect(refused).toEqual({ status: 409, json: { message: `flow ${flow.id} already ended as COMPLETED` } });
    expect((await readBack(h, flow.id)).status).toBe('COMPLETED');
    expect((await post(h, 'flows/1399999999999999999/finish')).status).toBe(404);
    const bad = await post(h, `flows/${flow.id}/finish`, { status: 'not a status', extra: 1 });
    expect(bad.status).toBe(400);
    expect(String(bad.json.message)).toMatch(/status/);
    const other = await h.client.startLiveModel(live('other'));
    const broken = await fetch(`${h.emu.url}/_emulator/flows/${other.id}/finish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"status": "FAIL',
    });
    expect(broken.status).toBe(400);
    expect(['CREATED', 'RUNNING']).toContain((await readBack(h, other.id)).status);
  });
});

describe('flows that would end by themselves', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, { runningAfterMs: 0, completedAfterMs: 30 });
  });
  beforeEach(() => h.reset());
  afterAll(() => h.close());

  it('a rule fails the next matching flow with its message and spends itself; the one after completes', async () => {
    await h.control('POST', 'flow-rules', {
      flowType: 'STARTLIVEMODEL',
      status: 'FAILED',
      message: 'model has no input signals',
      count: 1,
    });
    const first = await h.client.startLiveModel(live('first'));
    const failed = await untilStatus(h, first.id, 'FAILED');
    expect(failed.message).toBe('model has no input signals');
    expect(failed).not.toHaveProperty('outputs');
    expect((await h.state()).models!.find((m) => m.id === SEED.models.pressureCommon)?.live).toBe(false);
    const second = await h.client.startLiveModel(live('second'));
    await untilStatus(h, second.id, 'COMPLETED');
    expect(await h.control('GET', 'flow-rules')).toEqual([
      expect.objectContaining({ flowType: 'STARTLIVEMODEL', status: 'FAILED', hits: 1, remaining: 0 }),
    ]);
  });

  it('a rule matching names holds flows in an unknown status while others complete; finish ends them', async () => {
    await h.control('POST', 'flow-rules', { name: '^stuck', status: 'WAITING_FOR_DATA' });
    const stuck = await h.client.startLiveModel(live('stuck one'));
    await untilStatus(h, stuck.id, 'WAITING_FOR_DATA');
    // A flow created later completes, so the held one's own completion time has certainly passed.
    const other = await h.client.startLiveModel(live('other'));
    await untilStatus(h, other.id, 'COMPLETED');
    expect((await readBack(h, stuck.id)).status).toBe('WAITING_FOR_DATA');
    await h.control('POST', `flows/${stuck.id}/finish`, { status: 'COMPLETED' });
    expect((await readBack(h, stuck.id)).status).toBe('COMPLETED');
  });

  it('rules for RUNNING (never finishes) and CANCELLED; the first live rule that matches decides', async () => {
    await h.control('POST', 'flow-rules', { flowType: 'STARTLIVEMODEL', status: 'RUNNING', count: 1 });
    await h.control('POST', 'flow-rules', { status: 'CANCELLED', message: 'superseded', count: 1 });
    const running = await h.client.startLiveModel(live('runs forever'));
    const cancelled = await h.client.startLiveModel(live('cancelled'));
    const normal = await h.client.startLiveModel(live('normal'));
    expect((await untilStatus(h, cancelled.id, 'CANCELLED')).message).toBe('superseded');
    await untilStatus(h, normal.id, 'COMPLETED');
    expect((await readBack(h, running.id)).status).toBe('RUNNING');
  });

  it('holding a flow by hand cancels its scheduled completion', async () => {
    await h.control('PUT', 'flow-delays', { runningAfterMs: 0, completedAfterMs: 1_500 });
    const held = await h.client.startLiveModel(live('held'));
    expect((await post(h, `flows/${held.id}/finish`, { status: 'RUNNING' })).status).toBe(200);
    const later = await h.client.startLiveModel(live('later'));
    await untilStatus(h, later.id, 'COMPLETED');
    expect((await readBack(h, held.id)).status).toBe('RUNNING');
  });

  it('refuses a malformed rule naming the field; DELETE and reset clear the rules', async () => {
    const bad = await post(h, 'flow-rules', { status: 'FAILED', count: 0 });
    expect(bad.status).toBe(400);
    expect(String(bad.json.message)).toMatch(/count/);
    expect((await post(h, 'flow-rules', { status: 'FAILED', name: '(' })).status).toBe(400);
    await h.control('POST', 'flow-rules', { status: 'FAILED' });
    await h.control('DELETE', 'flow-rules');
    expect(await h.control('GET', 'flow-rules')).toEqual([]);
    await h.control('POST', 'flow-rules', { status: 'FAILED' });
    await h.reset();
    expect(await h.control('GET', 'flow-rules')).toEqual([]);
  });
});

describe('switching the read-back off: PUT /_emulator/features', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, { runningAfterMs: 0, completedAfterMs: 3_600_000 });
  });
  beforeEach(() => h.reset());
  afterAll(() => h.close());

  it('answers 404 "no route" like a service without it, and a missing flow differently when on', async () => {
    const flow = await h.client.startLiveModel(live('go live'));
    expect(await h.control('GET', 'features')).toEqual({ flowReadBack: true });
    expect(await h.raw('GET', `${A}/flows/1399999999999999999`)).toEqual({
      status: 404,
      json: { message: 'flow 1399999999999999999 not found' },
    });
    expect(await h.control('PUT', 'features', { flowReadBack: false })).toEqual({ flowReadBack: false });
    expect(await h.raw('GET', `${A}/flows/${flow.id}`)).toEqual({
      status: 404,
      json: { message: `no route GET ${A}/flows/${flow.id}` },
    });
    await h.reset();
    expect(await h.control('GET', 'features')).toEqual({ flowReadBack: true });
  });

  it('refuses an unknown feature or a non-boolean', async () => {
    expect((await post(h, 'features', { flowReadBack: false })).status).toBe(404);
    for (const body of [{ flowReadback: false }, { flowReadBack: 'no' }]) {
      const res = await fetch(`${h.emu.url}/_emulator/features`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
    }
  });
});

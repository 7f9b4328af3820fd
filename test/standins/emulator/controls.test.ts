import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../../src/api/index.js';
import { SEED } from '../../../standins/emulator/index.js';
import { type Harness, startHarness } from '../../support/emulator.js';
import { named } from '../../support/service-calls.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ maxAttempts: 2, retryBaseDelayMs: 5 });
});
beforeEach(() => h.reset());
afterAll(() => h.close());

const A = `/api/1.3/accounts/${SEED.accountId}`;

describe('emulator controls', () => {
  it('state holds the seeded demo data with the documented IDs, stamped like the real service', async () => {
    const s = await h.state();
    expect(s.workspaces!.map((w) => w.id)).toEqual(Object.values(SEED.workspaces));
    expect(s.datastreams!.map((d) => d.id)).toEqual([SEED.datastream]);
    expect(s.signals!.map((d) => d.id)).toEqual(Object.values(SEED.signals));
    expect(s.assessments!.map((d) => d.id)).toEqual(Object.values(SEED.assessments));
    expect(s.models!.map((d) => d.id)).toEqual(Object.values(SEED.models));
    for (const recs of Object.values(s))
      if (Array.isArray(recs))
        for (const r of recs) {
          expect(r.id).toMatch(/^\d{19}$/);
          expect(r).toMatchObject({
            tenant: SEED.accountId,
            createdBy: SEED.principalId,
            updatedBy: SEED.principalId,
          });
          expect(String(r.type)).toMatch(/^entities\.[a-z]+$/);
          expect(Number.isInteger(r.createTime)).toBe(true);
        }
  });

  it('requests records method, path, query and body but never the token; reset clears records and state', async () => {
    await h.client.createWorkspace({ name: 'temp' });
    await h.client.findCommonModel(SEED.assessments.pressure);
    const log = await h.requests();
    expect(log.map((r) => [r.method, r.query, r.body])).toEqual([
      ['POST', {}, { name: 'temp' }],
      ['GET', { assessment: SEED.assessments.pressure, isCommonModel: 'true', limit: '1' }, undefined],
    ]);
    expect(JSON.stringify(log)).not.toContain(h.emu.token);
    expect((await h.state()).workspaces).toHaveLength(3);
    await h.reset();
    expect(await h.requests()).toHaveLength(0);
    expect((await h.state()).workspaces).toHaveLength(2);
  });

  it('a fault with a count hits exactly that many matching requests, and only matching ones', async () => {
    await h.fault({ method: 'GET', path: '/workspace/', status: 500, count: 2 });
    await h.client.findCommonModel(SEED.assessments.pressure);
    // 500 is not a retried status, so each call spends one hit.
    await expect(h.client.getWorkspace(SEED.workspaces.sandbox)).rejects.toMatchObject({ status: 500 });
    await expect(h.client.getWorkspace(SEED.workspaces.sandbox)).rejects.toMatchObject({ status: 500 });
    await expect(h.client.getWorkspace(SEED.workspaces.sandbox)).resolves.toMatchObject({
      id: SEED.workspaces.sandbox,
    });
    expect((await h.requests()).map((r) => r.status)).toEqual([200, 500, 500, 200]);
  });

  it('a fault can match the query string or the request body, so that one of several alike requests is hit', async () => {
    await h.fault({
      method: 'GET',
      path: '/models$',
      query: `assessment=${SEED.assessments.pressure}&`,
      status: 500,
    });
    await h.fault({ method: 'POST', path: '/flows$', requestBody: '"name":"doomed"', status: 503 });
    await expect(h.client.findCommonModel(SEED.assessments.temperature)).resolves.toMatchObject({
      id: SEED.models.temperatureCommon,
    });
    await expect(h.client.findCommonModel(SEED.assessments.pressure)).rejects.toMatchObject({ status: 500 });
    const live = { model: SEED.models.pressureCommon };
    await expect(h.client.startLiveModel({ name: 'spared', ...live })).resolves.toMatchObject({
      name: 'spared',
    });
    await expect(h.client.startLiveModel({ name: 'doomed', ...live })).rejects.toMatchObject({ status: 503 });
    expect((await h.requests()).map((r) => [r.method, r.status, r.fault ? 'hit' : '-'])).toEqual([
      ['GET', 200, '-'],
      ['GET', 500, 'hit'],
      ['POST', 201, '-'],
      ['POST', 503, 'hit'],
    ]);
    const bad = await h.raw('POST', '/_emulator/faults', { query: '(' });
    expect(bad).toMatchObject({ status: 400, json: { message: 'query: not a valid regular expression' } });
  });

  it('refuses a malformed fault with 400 naming the field', async () => {
    const res = await fetch(`${h.emu.url}/_emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 99, rate: 2 }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/status|rate/);
  });

  it('refuses fault fields that would be ignored, and corrupt combined with an answer of its own', async () => {
    for (const spec of [
      { message: 'no status' },
      { retryAfter: 1 },
      { corrupt: 'malformed-json', status: 200 },
      { corrupt: 'wrong-shape', reset: 'after' },
      { corrupt: 'gibberish' },
    ]) {
      const res = await fetch(`${h.emu.url}/_emulator/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(spec),
      });
      expect([spec, res.status]).toEqual([spec, 400]);
    }
  });

  it.each([
    ['malformed-json', 'application/json', (t: string) => expect(() => JSON.parse(t)).toThrow()],
    ['wrong-shape', 'application/json', (t: string) => expect(JSON.parse(t)).toEqual({ ok: true })],
    ['non-json', 'text/html', (t: string) => expect(t).toMatch(/^<html>/)],
  ] as const)(
    'corrupt %s handles the request, then spoils the reply but keeps its status',
    async (corrupt, type, check) => {
      await h.fault({ method: 'POST', path: '/workspace$', corrupt, count: 1 });
      const res = await fetch(`${h.emu.url}${A}/workspace`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.emu.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'spoilt' }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe(type);
      check(await res.text());
      expect((await h.state()).workspaces!.map((w) => w.name)).toContain('spoilt');
      const [logged] = await h.requests();
      expect(logged).toMatchObject({ status: 201, fault: { corrupt } });
    },
  );

  it('a canned body goes out with the given content type', async () => {
    await h.fault({
      method: 'GET',
      status: 502,
      body: '<h1>Bad gateway</h1>',
      contentType: 'text/html',
      count: 1,
    });
    const res = await fetch(`${h.emu.url}${A}/workspace/${SEED.workspaces.sandbox}`, {
      headers: { authorization: `Bearer ${h.emu.token}` },
    });
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([
      502,
      'text/html',
      '<h1>Bad gateway</h1>',
    ]);
  });

  it('a GET that times out on every attempt is a timeout error', async () => {
    const client = named(
      createServiceClient({
        baseUrl: h.emu.url,
        accountId: h.emu.accountId,
        token: h.emu.token,
        maxAttempts: 2,
        requestTimeoutMs: 200,
        retryBaseDelayMs: 5,
      }),
    );
    await h.fault({ method: 'GET', latencyMs: 5_000 });
    await expect(client.getWorkspace(SEED.workspaces.sandbox)).rejects.toMatchObject({ kind: 'timeout' });
    await client.close();
    expect(await h.requests()).toHaveLength(2);
  });
});

describe('emulator HTTP rules', () => {
  it('405 for a wrong method on a known path, 415 for a body that is not JSON-typed, 400 for broken JSON', async () => {
    expect((await h.raw('DELETE', `${A}/workspace/${SEED.workspaces.sandbox}`)).status).toBe(405);
    const form = await fetch(`${h.emu.url}${A}/workspace`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.emu.token}`, 'content-type': 'text/plain' },
      body: '{"name":"x"}',
    });
    expect(form.status).toBe(415);
    const broken = await h.raw('POST', `${A}/workspace`, '{"name":');
    expect(broken).toMatchObject({ status: 400, json: { message: expect.stringContaining('JSON') } });
  });

  it('unknown IDs are 404 naming the resource', async () => {
    const missing = '1399999999999999999';
    expect(await h.raw('GET', `${A}/workspace/${missing}`)).toMatchObject({
      status: 404,
      json: { message: `workspace ${missing} not found` },
    });
    expect(
      await h.raw('PUT', `${A}/models/${missing}`, { workspace: SEED.workspaces.sandbox }),
    ).toMatchObject({
      status: 404,
      json: { message: `model ${missing} not found` },
    });
    expect(
      await h.raw(
        'GET',
        `/api/1.2/accounts/${SEED.accountId}/models?assessment=${missing}&isCommonModel=true&limit=1`,
      ),
    ).toMatchObject({ status: 404, json: { message: `assessment ${missing} not found` } });
  });
});

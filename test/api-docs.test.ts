import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ERROR_KINDS } from '../src/api/errors.js';
import { REGISTRY } from '../src/core/operations/registry/index.js';
import { faultSpec } from '../standins/emulator/faults.js';
import { FLOW_TYPES, flowTypesAt } from '../standins/emulator/flow-types.js';
import { SEED } from '../standins/emulator/index.js';
import { API_DOCS, emulatorRolesOf, expectedDocs, routeOf, writeDocs } from './support/api-docs.js';
import { type Harness, startHarness } from './support/emulator.js';

/**
 * Every table of docs/api-and-emulator.md is made from the code or checked against it: the calls, the
 * emulator's extensions and the roles are generated from the registry and the emulator's routes
 * (`UPDATE_DOCS=1 npx vitest run test/api-docs.test.ts` writes them in); the others are held to the
 * emulator they describe.
 */

const docs = () => readFileSync(API_DOCS, 'utf8');

/** The rows of the table under the line that starts with `head`, as cells. */
function rowsUnder(head: string): string[][] {
  const lines = docs().split('\n');
  const at = lines.findIndex((l) => l.startsWith(head));
  if (at < 0) throw new Error(`no table headed ${head}`);
  const rows: string[][] = [];
  for (const l of lines.slice(at + 2)) {
    if (!l.startsWith('|')) break;
    rows.push(
      l
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
  }
  return rows;
}
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe('docs/api-and-emulator.md, made from the code', () => {
  it('its calls, extensions and roles tables are the registry’s and the emulator routes’', async () => {
    const { now, expected } = await expectedDocs();
    if (process.env.UPDATE_DOCS && now !== expected) writeDocs(expected);
    else expect(now).toBe(expected);
  });

  it('the emulator serves every call the registry declares, at its version, with the role the entry says', () => {
    for (const e of REGISTRY) {
      expect(routeOf(e), e.command.id).toBeDefined();
      for (const t of e.wire.flowType?.all ?? []) expect(flowTypesAt(e.wire.version), t).toContain(t);
      for (const role of emulatorRolesOf(e)) expect(role, e.command.id).toBe(e.role);
    }
  });
});

describe('docs/api-and-emulator.md, checked against the client', () => {
  it('its error table has a row for every kind of failure the client tells apart', () => {
    const documented = rowsUnder('| kind ').map((r) => ticked(r[0]!)[0]);
    expect(new Set(documented)).toEqual(new Set(SERVICE_ERROR_KINDS));
  });
});

describe('docs/api-and-emulator.md, checked against the emulator', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, { runningAfterMs: 0, completedAfterMs: 3_600_000 });
  });
  afterAll(() => h?.close());

  it('the demo data table names every ID of the demo data, and nothing else', () => {
    const ids = (v: unknown): string[] =>
      typeof v === 'string' && /^\d{19}$/.test(v)
        ? [v]
        : v && typeof v === 'object'
          ? Object.values(v).flatMap(ids)
          : [];
    const documented = rowsUnder('| What ').flatMap((r) => ticked(r[1]!));
    const seeded = ids(SEED).filter((id) => id !== SEED.principalId);
    expect(new Set(documented)).toEqual(new Set(seeded));
  });

  it('the fault fields are the fields the emulator takes, and every fault of the matrix is one it accepts', () => {
    const fields = rowsUnder('| Field ').map((r) => ticked(r[0]!)[0]);
    expect(new Set(fields)).toEqual(new Set(Object.keys(faultSpec.shape)));
    for (const [name, fault] of rowsUnder('| Case ')) {
      const spec = JSON.parse(ticked(fault!)[0]!.replace('…', ''));
      expect(faultSpec.safeParse(spec).success, name).toBe(true);
    }
  });

  it('every control it lists answers, and every control the emulator has is listed', async () => {
    // `GET`/`POST /_emulator/users`: a method alone goes with the path after it.
    const listed = rowsUnder('| Request ').flatMap((r) => {
      const pending: string[] = [];
      return ticked(r[0]!).flatMap((t) => {
        if (/^[A-Z]+$/.test(t)) {
          pending.push(t);
          return [];
        }
        const [method, path] = t.replace(/\[\?.*\]$/, '').split(' ') as [string, string];
        return [...pending.splice(0), method].map((m) => `${m} ${path}`);
      });
    });
    expect(listed.length).toBeGreaterThan(10);
    for (const route of listed) {
      const [method, path] = route.split(' ') as [string, string];
      const res = await fetch(
        `${h.emu.url}${path.replace('{id}', SEED.flows.baselineLearn).replace('{name}', 'nobody')}`,
        {
          method,
          headers: { 'content-type': 'application/json' },
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
        },
      );
      const text = await res.text();
      expect(text, route).not.toContain('no emulator control');
    }
    const source = readFileSync(new URL('../standins/emulator/server.ts', import.meta.url), 'utf8');
    const people = readFileSync(new URL('../standins/emulator/people.ts', import.meta.url), 'utf8');
    const cases = [
      ...`${source}\n${people}`.matchAll(/case '((?:GET|POST|PUT|DELETE) \/_emulator\/[^']+)'/g),
    ].map((m) => m[1]!);
    for (const c of cases) expect(listed, c).toContain(c);
    await h.reset();
  });

  it('the output entries it lists are what each flow type writes on completion', async () => {
    const documented = new Map(
      rowsUnder('| `type` ').map((r) => [
        ticked(r[0]!)[0]!,
        { by: ticked(r[1]!), fields: ticked(r[2]!).map((f) => /^\w+/.exec(f)![0]) },
      ]),
    );
    const written = new Map<string, { by: Set<string>; fields: Set<string> }>();
    const seen = (type: string, flowType: string, fields: string[]) => {
      const w = written.get(type) ?? { by: new Set(), fields: new Set() };
      w.by.add(flowType);
      for (const f of fields) w.fields.add(f);
      written.set(type, w);
    };
    const finish = async (flowType: string, body: Record<string, unknown>) => {
      const version = FLOW_TYPES[flowType as keyof typeof FLOW_TYPES].version;
      const created = await h.raw('POST', `/api/${version}/accounts/${SEED.accountId}/flows`, {
        flowType,
        ...body,
      });
      expect(created.status, flowType).toBe(201);
      const id = (created.json as { id: string }).id;
      await h.control('POST', `flows/${id}/finish`);
      const flow = (await h.raw('GET', `/api/1.3/accounts/${SEED.accountId}/flows/${id}`)).json as {
        outputs?: Record<string, unknown>[];
      };
      for (const o of flow.outputs ?? [])
        seen(
          String(o.type),
          flowType,
          Object.keys(o).filter((k) => k !== 'type'),
        );
    };
    const inline = {
      name: 'docs',
      specs: [
        {
          timeRanges: [{ startTime: '2025-11-01T00:00:00Z', endTime: '2025-11-02T00:00:00Z' }],
          signals: [{ signal: SEED.signals.temperature, name: 'temperature' }],
        },
      ],
    };
    const segment = { entities: ['pump-1'], timeRange: { startTime: '1', endTime: '2' } };
    await finish('ANOMALYLEARN', {
      name: 'l',
      spec: { workspace: SEED.workspaces.pumpStation, dataspec: inline },
    });
    await finish('ANOMALYEVAL', {
      name: 'e',
      spec: {
        model: SEED.models.temperatureAnomaly,
        workspace: SEED.workspaces.pumpStation,
        dataspec: { id: SEED.dataspec },
        outputsignalPrefix: 'docs',
      },
    });
    await finish('EVAL', {
      name: 'b',
      datastream: SEED.datastream,
      assessment: SEED.assessments.temperature,
      model: SEED.models.temperatureCommon,
      spec: {
        commonModelId: SEED.models.temperatureCommon,
        segments: [segment],
        forLive: true,
        withEpisodes: true,
      },
    });
    await finish('STARTLIVEMODEL', { name: 's', spec: { model: SEED.models.pressureCommon } });
    await finish('STOPLIVEMODEL', { name: 't', spec: { model: SEED.models.pressureCommon } });
    await h.reset();

    expect([...documented.keys()].sort()).toEqual([...written.keys()].sort());
    for (const [type, w] of written) {
      const d = documented.get(type)!;
      expect(new Set(d.fields), type).toEqual(w.fields);
      const by = d.by.flatMap((b) =>
        b === 'START/STOPLIVEMODEL' ? ['STARTLIVEMODEL', 'STOPLIVEMODEL'] : [b],
      );
      expect(new Set(by), type).toEqual(w.by);
    }
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/api/index.js';
import {
  CATALOG_RETENTION_DAYS,
  entriesFromOperation,
  forgetMissing,
  missingResource,
  pruneCatalog,
  recordOperation,
  resolveName,
  searchCandidates,
  startCatalogPruner,
} from '../../src/core/catalog/index.js';
import { isGovernanceCommand, parseCommand } from '../../src/core/grammar/parse.js';
import { WORKSPACE } from '../../src/core/kinds/index.js';
import type { OpRequest } from '../../src/core/operations/operation.js';
import { resolveCommand } from '../../src/core/operations/resolve.js';
import type { Store } from '../../src/store/index.js';
import { SEED } from '../../standins/emulator/index.js';
import { type Harness, startHarness } from '../support/emulator.js';
import { storeForEachTest } from '../support/fixtures/store.js';
import { recordFlowResult } from '../support/flow-results.js';

const NOW = new Date('2026-11-22T09:14:42.500Z');
const T0 = NOW.getTime();
const DAY = 86_400_000;
const W = '1353853719423311872';
const M = '1353853719423311873';
const A = '1353853719423311874';
const D = '1353853719423311875';
const S1 = '1353853719423311876';
const S2 = '1353853719423311877';
const DS = '1353853719423311878';
const M0 = '1353853719423311880';

/** A request as the command path makes it: parsed, then resolved. */
function request(text: string): OpRequest {
  const parsed = parseCommand(text);
  if (!parsed.ok) throw new Error(parsed.message);
  const cmd = parsed.command;
  if (cmd.kind === 'help' || cmd.kind === 'live' || isGovernanceCommand(cmd))
    throw new Error('not an operation');
  const r = resolveCommand(cmd, { userName: 'alice', timeZone: 'UTC', now: NOW });
  if (!r.ok) throw new Error(r.message);
  return r.operation as OpRequest;
}

describe('what an operation records', () => {
  it('workspace create and show: the workspace with the name the service returned', () => {
    expect(
      entriesFromOperation({
        request: request('workspace create "Pump station 3"'),
        returned: { id: W, name: 'Pump station 3' },
      }),
    ).toEqual([{ kind: 'workspace', id: W, name: 'Pump station 3', source: 'service' }]);
    expect(
      entriesFromOperation({ request: request('workspace create "Pump station 3"'), returned: { id: W } }),
    ).toEqual([{ kind: 'workspace', id: W, name: 'Pump station 3', source: 'service' }]);
    expect(
      entriesFromOperation({ request: request(`workspace show ${W}`), returned: { id: W, name: 'Line 3' } }),
    ).toEqual([{ kind: 'workspace', id: W, name: 'Line 3', source: 'service' }]);
    expect(entriesFromOperation({ request: request(`workspace show ${W}`) })).toEqual([
      { kind: 'workspace', id: W, source: 'service' },
    ]);
  });

  it('model common and move: the model with its name, workspace and assessment', () => {
    expect(
      entriesFromOperation({
        request: request(`model common ${A}`),
        returned: { id: M, name: 'Line 3/anomaly/M[0]', workspace: W },
      }),
    ).toEqual([
      { kind: 'assessment', id: A, source: 'service' },
      {
        kind: 'model',
        id: M,
        name: 'Line 3/anomaly/M[0]',
        source: 'service',
        links: { assessment: A, workspace: W },
      },
      { kind: 'workspace', id: W, source: 'service' },
    ]);
    // No common model: the lookup proved nothing.
    expect(entriesFromOperation({ request: request(`model common ${A}`) })).toEqual([]);
    expect(
      entriesFromOperation({ request: request(`model move ${M} to ${W}`), returned: { id: M } }),
    ).toEqual([
      { kind: 'model', id: M, source: 'service', links: { workspace: W } },
      { kind: 'workspace', id: W, source: 'service' },
    ]);
    expect(entriesFromOperation({ request: request(`model move ${M} to ${W}`) })).toEqual([
      { kind: 'model', id: M, source: 'service', links: { workspace: W } },
      { kind: 'workspace', id: W, source: 'service' },
    ]);
  });

  it('eval: assessment, live model of that assessment, datastream, and the M[0] looked up', () => {
    const req = request(`eval ${A} model=${M} datastream=${D} entities=pump-1 range="Nov 20 to Nov 21"`);
    expect(entriesFromOperation({ request: req, returned: { id: M0, name: 'M[0]' } })).toEqual([
      { kind: 'assessment', id: A, source: 'command' },
      { kind: 'model', id: M, source: 'command', links: { assessment: A } },
      { kind: 'datastream', id: D, source: 'command' },
      { kind: 'model', id: M0, name: 'M[0]', source: 'service', links: { assessment: A } },
    ]);
  });

  it('learn, relearn, score: workspace, the model without the workspace the request names, labelled signals, dataspec', () => {
    expect(
      entriesFromOperation({
        request: request(`learn workspace=${W} signals=${S1}:temperature,${S2} range="Nov 20 to Nov 21"`),
      }),
    ).toEqual([
      { kind: 'workspace', id: W, source: 'command' },
      { kind: 'signal', id: S1, name: 'temperature', source: 'command' },
      { kind: 'signal', id: S2, source: 'command' },
    ]);
    expect(entriesFromOperation({ request: request(`relearn ${M} workspace=${W} dataspec=${DS}`) })).toEqual([
      { kind: 'workspace', id: W, source: 'command' },
      // The workspace a request names is a claim, never the model's workspace: approvers follow that.
      { kind: 'model', id: M, source: 'command' },
      { kind: 'dataspec', id: DS, source: 'command' },
    ]);
    expect(
      entriesFromOperation({
        request: request(
          `score ${M} workspace=${W} signals=${S1}:inlet range="Nov 20 to Nov 21" outputs=${S2}:score`,
        ),
      }),
    ).toEqual([
      { kind: 'workspace', id: W, source: 'command' },
      { kind: 'model', id: M, source: 'command' },
      { kind: 'signal', id: S1, name: 'inlet', source: 'command' },
      { kind: 'signal', id: S2, source: 'command' },
    ]);
  });

  it('live start/stop, flow lookups, and IDs that are not service IDs', () => {
    expect(
      entriesFromOperation({
        request: {
          kind: 'live-model',
          action: 'start',
          modelId: M,
          assessmentId: A,
          name: 'go',
          approvalId: '1',
        },
      }),
    ).toEqual([
      { kind: 'model', id: M, source: 'command', links: { assessment: A } },
      { kind: 'assessment', id: A, source: 'command' },
    ]);
    expect(entriesFromOperation({ request: request(`flow ${M}`) })).toEqual([]);
    expect(
      entriesFromOperation({
        request: { kind: 'model-common', assessmentId: A },
        returned: { id: '42', name: 'odd', workspace: 'not-an-id' },
      }),
    ).toEqual([{ kind: 'assessment', id: A, source: 'service' }]);
    expect(
      entriesFromOperation({
        request: { kind: 'workspace-show', workspaceId: W },
        returned: { id: W, name: ' ' },
      }),
    ).toEqual([{ kind: 'workspace', id: W, source: 'service' }]);
  });

  it('a not-found answer names a resource only when the request names exactly one', () => {
    expect(missingResource(request(`workspace show ${W}`), 404)).toEqual({ kind: 'workspace', id: W });
    expect(missingResource(request(`workspace show ${W}`), 500)).toBeNull();
    expect(missingResource(request(`workspace show ${W}`), undefined)).toBeNull();
    expect(missingResource(request(`model move ${M} to ${W}`), 404)).toBeNull();
  });
});

describe('recording against the emulator into a SQLite store', () => {
  let emu: Harness;
  let store: Store;
  const TEAM = 'T0PLANT';
  const now = () => T0;

  beforeAll(async () => {
    emu = await startHarness({ retryBaseDelayMs: 1 });
  });
  afterAll(async () => {
    await emu.close();
  });
  storeForEachTest((s) => {
    store = s;
  });
  beforeEach(async () => {
    await emu.reset();
  });

  it('service replies name what commands only numbered; the names then resolve and are offered', async () => {
    const created = await emu.client.createWorkspace({ name: 'Compressor hall' });
    await recordOperation(store, {
      teamId: TEAM,
      now,
      request: { kind: 'workspace-create', name: 'Compressor hall' },
      returned: created,
    });
    const shown = await emu.client.getWorkspace(SEED.workspaces.pumpStation);
    await recordOperation(store, {
      teamId: TEAM,
      now,
      request: { kind: 'workspace-show', workspaceId: SEED.workspaces.pumpStation },
      returned: shown,
    });
    const common = await emu.client.findCommonModel(SEED.assessments.temperature);
    expect(common).not.toBeNull();
    await recordOperation(store, {
      teamId: TEAM,
      now: () => T0 + 1,
      request: { kind: 'model-common', assessmentId: SEED.assessments.temperature },
      returned: common!,
    });

    expect(await resolveName(store, { teamId: TEAM, kind: WORKSPACE, text: 'pump station a' })).toEqual({
      ok: true,
      id: SEED.workspaces.pumpStation,
      name: 'Pump station A',
      by: 'name',
    });
    expect(
      await resolveName(store, { teamId: TEAM, kind: WORKSPACE, text: 'Compressor  HALL' }),
    ).toMatchObject({
      ok: true,
      id: created.id,
    });
    const models = await searchCandidates(store, {
      teamId: TEAM,
      kind: 'model',
      text: 'M[0]',
      links: { assessment: SEED.assessments.temperature },
    });
    expect(models.map((c) => c.id)).toEqual([SEED.models.temperatureCommon]);
    expect(models[0]?.label).toBe(`${common!.name} · ${SEED.models.temperatureCommon}`);
  });

  it('an ID the service said does not exist is never added, even by a later successful command', async () => {
    const unknown = '1039999999999999999';
    const req: OpRequest = { kind: 'workspace-show', workspaceId: unknown };
    let status: number | undefined;
    try {
      await emu.client.getWorkspace(unknown);
    } catch (e) {
      status = e instanceof ServiceError ? e.status : undefined;
    }
    const missing = missingResource(req, status);
    expect(missing).toEqual({ kind: 'workspace', id: unknown });
    await forgetMissing(store, { teamId: TEAM, ...missing!, now });
    await recordOperation(store, {
      teamId: TEAM,
      now: () => T0 + 1,
      request: request(`learn workspace=${unknown} dataspec=${DS}`),
    });
    const offered = await searchCandidates(store, { teamId: TEAM, kind: 'workspace', text: '' });
    expect(offered).toEqual([]);
    expect(
      (await searchCandidates(store, { teamId: TEAM, kind: 'workspace', text: unknown }))[0],
    ).toMatchObject({
      label: `use ID ${unknown}`,
      description: 'the service said it does not exist',
      origin: 'typed',
    });
    // The dataspec of that command is recorded; only the missing workspace is kept out.
    expect((await searchCandidates(store, { teamId: TEAM, kind: 'dataspec' })).map((c) => c.id)).toEqual([
      DS,
    ]);
  });

  it('flow results, read by their entries: a model the flow created in its workspace, dataspec of that model, Eval object', async () => {
    const entry = (kind: Parameters<Store['getCatalogEntry']>[1], id: string) =>
      store.getCatalogEntry(TEAM, kind, id);
    // A model the flow only taught (a relearn) is not put in the flow's workspace: that was the request's word.
    await recordFlowResult(store, { teamId: TEAM, now, workspaceId: W, model: { id: M, created: false } });
    expect(await entry('workspace', W)).toMatchObject({ source: 'flow' });
    expect(await entry('model', M)).toMatchObject({ source: 'flow', workspaceId: null });

    await recordFlowResult(store, {
      teamId: TEAM,
      now,
      workspaceId: W,
      model: { id: S1, name: 'Line 3/anomaly/M[1]', created: true, assessmentId: A },
      dataspec: { id: DS, name: 'learn by @alice' },
    });
    expect(await entry('model', S1)).toMatchObject({
      name: 'Line 3/anomaly/M[1]',
      workspaceId: W,
      assessmentId: A,
    });
    expect(await entry('dataspec', DS)).toMatchObject({
      name: 'learn by @alice',
      modelId: S1,
      workspaceId: W,
    });
    // A learned model's assessment (its signal) is offered where an assessment is asked for.
    expect(await entry('assessment', A)).toMatchObject({ source: 'flow' });

    await recordFlowResult(store, { teamId: TEAM, now, workspaceId: W, eval: { id: D, modelId: M } });
    expect(await entry('eval', D)).toMatchObject({ modelId: M, workspaceId: W });
  });

  it('flow results and pruning: entries unused for the retention period go, others stay', async () => {
    await recordFlowResult(store, {
      teamId: TEAM,
      now: () => T0 - (CATALOG_RETENTION_DAYS + 1) * DAY,
      workspaceId: W,
      model: { id: M, name: 'old model' },
    });
    await recordFlowResult(store, {
      teamId: TEAM,
      now: () => T0 - DAY,
      workspaceId: W,
      dataspec: { id: DS },
    });
    expect(await pruneCatalog(store, { now })).toBe(1);
    expect(await store.getCatalogEntry(TEAM, 'model', M)).toBeNull();
    expect(await store.getCatalogEntry(TEAM, 'workspace', W)).not.toBeNull();
    expect(await store.getCatalogEntry(TEAM, 'dataspec', DS)).toMatchObject({ workspaceId: W });

    const pruner = startCatalogPruner(store, { now: () => T0 + 200 * DAY });
    await pruner.stop();
    expect(await store.searchCatalog({ teamId: TEAM, kind: 'dataspec' })).toEqual([]);
  });
});

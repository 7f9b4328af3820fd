import { beforeEach, describe, expect, it } from 'vitest';
import {
  describeResolved,
  editDistance,
  forgetMissing,
  recordOperation,
  resolveArguments,
  resolveCommandNames,
  resolveName,
} from '../../src/core/catalog/index.js';
import { parseCommand } from '../../src/core/grammar/parse.js';
import type { Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';
import { recordFlowResult } from '../support/flow-results.js';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const TEAM = 'T0PLANT';
const id = (n: number) => `13538537194233${String(n).padStart(5, '0')}`;
const W1 = id(1);
const W2 = id(2);
const W3 = id(3);
const S1 = id(31);
const S2 = id(32);

describe('names in commands', () => {
  let store: Store;
  storeForEachTest((s) => {
    store = s;
  });
  beforeEach(async () => {
    const shown = (workspaceId: string, name: string, at: number) =>
      recordOperation(store, {
        teamId: TEAM,
        now: () => at,
        request: { kind: 'workspace-show', workspaceId },
        returned: { id: workspaceId, name },
      });
    await shown(W1, 'Pump station A', T0 + 1);
    await shown(W2, 'Pump station B', T0 + 2);
    await shown(W3, 'Compressor hall', T0 + 3);
    // Two models of the same name, one per workspace.
    await recordFlowResult(store, {
      teamId: TEAM,
      now: () => T0 + 4,
      workspaceId: W1,
      model: { id: id(11), name: 'Baseline', created: true },
    });
    await recordFlowResult(store, {
      teamId: TEAM,
      now: () => T0 + 5,
      workspaceId: W2,
      model: { id: id(12), name: 'baseline', created: true },
    });
    await recordOperation(store, {
      teamId: TEAM,
      now: () => T0 + 6,
      request: {
        kind: 'learn',
        name: 'learn',
        workspaceId: W1,
        data: {
          kind: 'inline',
          signals: [
            { signal: S1, name: 'inlet temperature' },
            { signal: S2, name: 'outlet pressure' },
          ],
          ranges: [],
          dataspecName: 'learn',
        },
      },
    });
  });

  it('a unique name resolves, whatever its case and spacing; the reply can say to which ID', async () => {
    const r = await resolveName(store, { teamId: TEAM, kind: 'workspace', text: '  pump   STATION a ' });
    expect(r).toEqual({ ok: true, id: W1, name: 'Pump station A', by: 'name' });
    const args = await resolveArguments(store, TEAM, { workspace: 'Compressor hall' });
    expect(args).toEqual({
      ok: true,
      args: { workspace: W3 },
      resolved: [{ key: 'workspace', text: 'Compressor hall', id: W3, name: 'Compressor hall' }],
    });
    expect(args.ok && describeResolved(args.resolved)).toBe(
      `Names resolved: workspace "Compressor hall" → \`${W3}\`.`,
    );
    // The resolved arguments are what the grammar accepts.
    expect(parseCommand(`workspace show workspace=${args.ok ? args.args.workspace : ''}`).ok).toBe(true);
  });

  it('an ID passes through as the ID, known or not', async () => {
    expect(await resolveName(store, { teamId: TEAM, kind: 'workspace', text: W2 })).toEqual({
      ok: true,
      id: W2,
      name: 'Pump station B',
      by: 'id',
    });
    expect(await resolveName(store, { teamId: TEAM, kind: 'workspace', text: id(999) })).toEqual({
      ok: true,
      id: id(999),
      by: 'id',
    });
    await forgetMissing(store, { teamId: TEAM, kind: 'workspace', id: W2, now: () => T0 + 10 });
    expect(await resolveName(store, { teamId: TEAM, kind: 'workspace', text: W2 })).toMatchObject({
      ok: true,
      id: W2,
    });
    // A forgotten entry's name no longer resolves.
    expect(
      await resolveName(store, { teamId: TEAM, kind: 'workspace', text: 'Pump station B' }),
    ).toMatchObject({
      ok: false,
      reason: 'unknown',
    });
  });

  it('an ambiguous name is refused with every candidate listed', async () => {
    const r = await resolveName(store, { teamId: TEAM, kind: 'model', text: 'BASELINE' });
    expect(r).toMatchObject({ ok: false, reason: 'ambiguous', text: 'BASELINE' });
    if (r.ok) throw new Error('resolved');
    expect(r.candidates.map((c) => [c.id, c.name])).toEqual([
      [id(12), 'baseline'],
      [id(11), 'Baseline'],
    ]);
    expect(r.message).toBe(
      `2 models are named "BASELINE": "baseline" (\`${id(12)}\`), "Baseline" (\`${id(11)}\`). Give the ID instead.`,
    );
  });

  it('a workspace named in the same command singles out one of several same-named models', async () => {
    expect(
      await resolveName(store, { teamId: TEAM, kind: 'model', text: 'Baseline', links: { workspace: W1 } }),
    ).toEqual({ ok: true, id: id(11), name: 'Baseline', by: 'name' });
    const args = await resolveArguments(store, TEAM, {
      model: 'baseline',
      workspace: 'Pump station B',
      range: 'today',
    });
    expect(args).toEqual({
      ok: true,
      args: { model: id(12), workspace: W2, range: 'today' },
      resolved: [
        { key: 'workspace', text: 'Pump station B', id: W2, name: 'Pump station B' },
        { key: 'model', text: 'baseline', id: id(12), name: 'baseline' },
      ],
    });
    // A workspace holding neither leaves it ambiguous.
    const still = await resolveArguments(store, TEAM, { model: 'baseline', workspace: W3 });
    expect(still).toMatchObject({ ok: false, key: 'model', resolution: { reason: 'ambiguous' } });
    expect(!still.ok && still.message).toMatch(/^`model=`: 2 models are named "baseline"/);
  });

  it('an unknown name is refused with the closest names, never a guess', async () => {
    const typo = await resolveName(store, { teamId: TEAM, kind: 'workspace', text: 'Pump staton A' });
    expect(typo).toMatchObject({ ok: false, reason: 'unknown' });
    if (typo.ok) throw new Error('resolved');
    expect(typo.candidates.map((c) => c.name)).toEqual(['Pump station A', 'Pump station B']);
    expect(typo.message).toBe(
      `No workspace named "Pump staton A" is known. Closest: "Pump station A" (\`${W1}\`), "Pump station B" (\`${W2}\`). Give the exact name in quotes or the ID.`,
    );
    // Part of a name is not the name.
    const part = await resolveName(store, { teamId: TEAM, kind: 'workspace', text: 'Compressor' });
    expect(part).toMatchObject({ ok: false, reason: 'unknown', candidates: [{ id: W3 }] });
    const none = await resolveName(store, { teamId: TEAM, kind: 'workspace', text: 'Turbine hall' });
    expect(none).toMatchObject({
      ok: false,
      reason: 'unknown',
      candidates: [{ id: W3, name: 'Compressor hall' }],
    });
    const nothing = await resolveName(store, { teamId: TEAM, kind: 'datastream', text: 'Plant sensors' });
    expect(nothing).toEqual({
      ok: false,
      reason: 'unknown',
      text: 'Plant sensors',
      candidates: [],
      message: 'No datastream named "Plant sensors" is known to the bot. Give the datastream ID instead.',
    });
  });

  it('a misspelt one-word name gets the names within a slip of it, at most three', async () => {
    const typo = await resolveName(store, { teamId: TEAM, kind: 'model', text: 'Baselnie' });
    expect(typo).toMatchObject({ ok: false, reason: 'unknown' });
    if (typo.ok) throw new Error('resolved');
    expect(typo.candidates.map((c) => c.id).sort()).toEqual([id(11), id(12)]);
    expect(typo.message).toMatch(/^No model named "Baselnie" is known\. Closest: "[Bb]aseline"/);
    const far = await resolveName(store, { teamId: TEAM, kind: 'model', text: 'Turbine' });
    expect(far).toMatchObject({ ok: false, reason: 'unknown', candidates: [] });
    for (let n = 0; n < 5; n++) {
      await recordFlowResult(store, {
        teamId: TEAM,
        now: () => T0 + 10 + n,
        workspaceId: W1,
        model: { id: id(40 + n), name: `Baseline ${n}`, created: true },
      });
    }
    const many = await resolveName(store, { teamId: TEAM, kind: 'model', text: 'Baselin' });
    expect(!many.ok && many.candidates.length).toBe(3);
  });

  it('digits that are not an ID are refused as an ID, and an empty name is refused', async () => {
    const r = await resolveName(store, { teamId: TEAM, kind: 'assessment', text: '12345' });
    expect(r).toMatchObject({ ok: false, reason: 'unknown', candidates: [] });
    expect(!r.ok && r.message).toMatch(
      /^`12345` is not a valid assessment ID: IDs are numbers of 18–19 digits/,
    );
    expect(await resolveName(store, { teamId: TEAM, kind: 'assessment', text: '  ' })).toMatchObject({
      ok: false,
      message: 'Give an assessment ID or name.',
    });
  });

  it('signal lists: names become id:label, IDs and labels pass through; outputs keep only the ID', async () => {
    const out = await resolveArguments(store, TEAM, {
      signals: `inlet temperature, ${S2}:outlet,${id(40)}`,
      outputs: 'Outlet pressure',
      entities: 'pump-1,pump-2',
    });
    expect(out).toEqual({
      ok: true,
      args: {
        signals: `${S1}:inlet temperature,${S2}:outlet,${id(40)}`,
        outputs: S2,
        entities: 'pump-1,pump-2',
      },
      resolved: [
        { key: 'signals', text: 'inlet temperature', id: S1, name: 'inlet temperature' },
        { key: 'outputs', text: 'Outlet pressure', id: S2, name: 'outlet pressure' },
      ],
    });
    expect(out.ok && parseCommand(`learn workspace=${W1} signals="${out.args.signals}" range=today`).ok).toBe(
      true,
    );
    const bad = await resolveArguments(store, TEAM, { signals: `${S1},pressure sensor` });
    expect(bad).toMatchObject({
      ok: false,
      key: 'signals',
      resolution: { reason: 'unknown', text: 'pressure sensor' },
    });
  });

  it("another team's names do not resolve", async () => {
    const r = await resolveName(store, { teamId: 'T0OTHER', kind: 'workspace', text: 'Pump station A' });
    expect(r).toMatchObject({ ok: false, reason: 'unknown', candidates: [] });
    expect(await resolveName(store, { teamId: 'T0OTHER', kind: 'workspace', text: W1 })).toEqual({
      ok: true,
      id: W1,
      by: 'id',
    });
  });
});

describe('names a command gives in quotes', () => {
  let store: Store;
  storeForEachTest((s) => {
    store = s;
  });
  beforeEach(async () => {
    await recordOperation(store, {
      teamId: TEAM,
      now: () => T0,
      request: { kind: 'workspace-show', workspaceId: W1 },
      returned: { id: W1, name: 'Pump station A' },
    });
    for (const [model, ws, at] of [
      [id(11), W1, T0 + 1],
      [id(12), W2, T0 + 2],
    ] as const)
      await recordFlowResult(store, {
        teamId: TEAM,
        now: () => at,
        workspaceId: ws,
        model: { id: model, name: 'Baseline', created: true },
      });
    await recordOperation(store, {
      teamId: TEAM,
      now: () => T0 + 3,
      request: {
        kind: 'learn',
        name: 'learn',
        workspaceId: W1,
        data: {
          kind: 'inline',
          signals: [{ signal: S1, name: 'inlet temperature' }],
          ranges: [],
          dataspecName: 'x',
        },
      },
    });
  });

  const parseWith = (text: string, names: Awaited<ReturnType<typeof resolveCommandNames>>) =>
    parseCommand(text, names.ok ? { names: names.names } : {});

  it('resolves them for the grammar, a workspace given with them singling out a shared model name', async () => {
    const text = 'relearn "baseline" workspace="Pump station A" signals="Inlet temperature" range=today';
    const first = parseCommand(text);
    if (first.ok || first.kind !== 'names') throw new Error('expected names');
    const names = await resolveCommandNames(store, TEAM, first);
    expect(names).toMatchObject({
      ok: true,
      resolved: [
        { key: 'workspace', text: 'Pump station A', id: W1 },
        { key: 'model', text: 'baseline', id: id(11) },
        { key: 'signals', text: 'Inlet temperature', id: S1, name: 'inlet temperature' },
      ],
    });
    expect(parseWith(text, names)).toMatchObject({
      ok: true,
      command: {
        kind: 'relearn',
        modelId: id(11),
        workspaceId: W1,
        data: { signals: [{ signal: S1, name: 'inlet temperature' }] },
      },
    });
    expect(names.ok && describeResolved(names.resolved)).toBe(
      `Names resolved: workspace "Pump station A" → \`${W1}\`, model "baseline" → \`${id(11)}\`, signal "Inlet temperature" → \`${S1}\`.`,
    );
  });

  it('refuses an ambiguous name with both candidates, and an unknown one with the closest', async () => {
    const first = parseCommand(`score "Baseline" workspace=${id(99)} dataspec=${id(98)} prefix=p`);
    if (first.ok || first.kind !== 'names') throw new Error('expected names');
    const refused = await resolveCommandNames(store, TEAM, first);
    expect(refused).toMatchObject({ ok: false, key: 'model' });
    expect(!refused.ok && refused.message).toMatch(
      new RegExp(`^\`model=\`: 2 models are named "Baseline": .*${id(12)}.*${id(11)}.*Give the ID instead.$`),
    );
    const unknown = parseCommand('workspace show "Pump station Z"');
    if (unknown.ok || unknown.kind !== 'names') throw new Error('expected names');
    const r = await resolveCommandNames(store, TEAM, unknown);
    expect(!r.ok && r.message).toMatch(
      /No workspace named "Pump station Z" is known\. Closest: "Pump station A"/,
    );
    // Another team knows none of these names.
    expect(await resolveCommandNames(store, 'T0OTHER', unknown)).toMatchObject({ ok: false });
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('pump staton a', 'pump station a')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

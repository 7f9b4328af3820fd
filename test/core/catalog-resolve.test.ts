import { beforeEach, describe, expect, it } from 'vitest';
import {
  describeResolved,
  editDistance,
  forgetMissing,
  recordOperation,
  resolveCommandNames,
  resolveName,
} from '../../src/core/catalog/index.js';
import { parseCommand } from '../../src/core/grammar/parse.js';
import { ASSESSMENT, DATASTREAM, MODEL, WORKSPACE } from '../../src/core/kinds/index.js';
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
  /** The names a command gives, looked up in the team's catalog. */
  const namesOf = async (text: string) => {
    const first = parseCommand(text);
    if (first.ok || first.kind !== 'names') throw new Error(`expected names in ${text}`);
    return resolveCommandNames(store, TEAM, first);
  };
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
    const r = await resolveName(store, { teamId: TEAM, kind: WORKSPACE, text: '  pump   STATION a ' });
    expect(r).toEqual({ ok: true, id: W1, name: 'Pump station A', by: 'name' });
    const names = await namesOf('workspace show workspace="Compressor hall"');
    expect(names).toMatchObject({
      ok: true,
      resolved: [{ key: 'workspace', text: 'Compressor hall', id: W3, name: 'Compressor hall' }],
    });
    expect(names.ok && describeResolved(names.resolved)).toBe(
      `Names resolved: workspace "Compressor hall" → \`${W3}\`.`,
    );
  });

  it('an ID passes through as the ID, known or not', async () => {
    expect(await resolveName(store, { teamId: TEAM, kind: WORKSPACE, text: W2 })).toEqual({
      ok: true,
      id: W2,
      name: 'Pump station B',
      by: 'id',
    });
    expect(await resolveName(store, { teamId: TEAM, kind: WORKSPACE, text: id(999) })).toEqual({
      ok: true,
      id: id(999),
      by: 'id',
    });
    await forgetMissing(store, { teamId: TEAM, kind: 'workspace', id: W2, now: () => T0 + 10 });
    expect(await resolveName(store, { teamId: TEAM, kind: WORKSPACE, text: W2 })).toMatchObject({
      ok: true,
      id: W2,
    });
    // A forgotten entry's name no longer resolves.
    expect(await resolveName(store, { teamId: TEAM, kind: WORKSPACE, text: 'Pump station B' })).toMatchObject(
      {
        ok: false,
        reason: 'unknown',
      },
    );
  });

  it('an ambiguous name is refused with every candidate listed', async () => {
    const r = await resolveName(store, { teamId: TEAM, kind: MODEL, text: 'BASELINE' });
    expect(r).toMatchObject({ ok: false, reason: 'ambiguous', text: 'BASELINE' });
    if (r.ok) throw new Error('resolved');
    expect(r.candidates.map((c) => [c.id, c.name])).toEqual([
      [id(12), 'baseline'],
      [id(11), 'Baseline'],
    ]);
    expect(r.message).toBe(
      `2 models are named "BASELINE": "baseline" (\`${id(12)}\`), "Baseline" (\`${id(11)}\`). Give the ID instead, or name its assessment or workspace as well.`,
    );
  });

  it('a workspace named in the same command singles out one of several same-named models', async () => {
    expect(
      await resolveName(store, { teamId: TEAM, kind: MODEL, text: 'Baseline', links: { workspace: W1 } }),
    ).toEqual({ ok: true, id: id(11), name: 'Baseline', by: 'name' });
    const args = await namesOf(`relearn baseline workspace="Pump station B" dataspec=${id(98)}`);
    expect(args).toMatchObject({
      ok: true,
      resolved: [
        { key: 'workspace', text: 'Pump station B', id: W2, name: 'Pump station B' },
        { key: 'model', text: 'baseline', id: id(12), name: 'baseline' },
      ],
    });
    // A workspace holding neither leaves it ambiguous.
    const still = await namesOf(`relearn baseline workspace=${W3} dataspec=${id(98)}`);
    expect(still).toMatchObject({ ok: false, key: 'model', resolution: { reason: 'ambiguous' } });
    expect(!still.ok && still.message).toMatch(/^`model=`: 2 models are named "baseline"/);
  });

  it('an unknown name is refused with the closest names, never a guess', async () => {
    const typo = await resolveName(store, { teamId: TEAM, kind: WORKSPACE, text: 'Pump staton A' });
    expect(typo).toMatchObject({ ok: false, reason: 'unknown' });
    if (typo.ok) throw new Error('resolved');
    expect(typo.candidates.map((c) => c.name)).toEqual(['Pump station A', 'Pump station B']);
    expect(typo.message).toBe(
      `No workspace named "Pump staton A" is known. Closest: "Pump station A" (\`${W1}\`), "Pump station B" (\`${W2}\`). Give the name as the bot knows it.`,
    );
    // Part of a name is not the name.
    const part = await resolveName(store, { teamId: TEAM, kind: WORKSPACE, text: 'Compressor' });
    expect(part).toMatchObject({ ok: false, reason: 'unknown', candidates: [{ id: W3 }] });
    const none = await resolveName(store, { teamId: TEAM, kind: WORKSPACE, text: 'Turbine hall' });
    expect(none).toMatchObject({
      ok: false,
      reason: 'unknown',
      candidates: [{ id: W3, name: 'Compressor hall' }],
    });
    const nothing = await resolveName(store, { teamId: TEAM, kind: DATASTREAM, text: 'Plant sensors' });
    expect(nothing).toEqual({
      ok: false,
      reason: 'unknown',
      text: 'Plant sensors',
      candidates: [],
      message:
        'No datastream named "Plant sensors" is known: the bot knows no datastream by name yet. Give its ID this time (IDs are numbers of 18–19 digits); once the service has named it to the bot, its name will do.',
    });
  });

  it('a misspelt one-word name gets the names within a slip of it, at most three', async () => {
    const typo = await resolveName(store, { teamId: TEAM, kind: MODEL, text: 'Baselnie' });
    expect(typo).toMatchObject({ ok: false, reason: 'unknown' });
    if (typo.ok) throw new Error('resolved');
    expect(typo.candidates.map((c) => c.id).sort()).toEqual([id(11), id(12)]);
    expect(typo.message).toMatch(/^No model named "Baselnie" is known\. Closest: "[Bb]aseline"/);
    // Nothing near it: the names the bot knows of that kind, so that the person sees what would do.
    const far = await resolveName(store, { teamId: TEAM, kind: MODEL, text: 'Turbine' });
    expect(far).toMatchObject({ ok: false, reason: 'unknown', candidates: [{ id: id(12) }, { id: id(11) }] });
    expect(!far.ok && far.message).toMatch(
      /^No model named "Turbine" is known\. The models the bot knows by name include "baseline"/,
    );
    for (let n = 0; n < 5; n++) {
      await recordFlowResult(store, {
        teamId: TEAM,
        now: () => T0 + 10 + n,
        workspaceId: W1,
        model: { id: id(40 + n), name: `Baseline ${n}`, created: true },
      });
    }
    const many = await resolveName(store, { teamId: TEAM, kind: MODEL, text: 'Baselin' });
    expect(!many.ok && many.candidates.length).toBe(3);
  });

  it('digits that are not an ID are refused as an ID, and an empty name is refused', async () => {
    const r = await resolveName(store, { teamId: TEAM, kind: ASSESSMENT, text: '12345' });
    expect(r).toMatchObject({ ok: false, reason: 'unknown', candidates: [] });
    expect(!r.ok && r.message).toMatch(
      /^`12345` is not a valid assessment ID: IDs are numbers of 18–19 digits/,
    );
    expect(await resolveName(store, { teamId: TEAM, kind: ASSESSMENT, text: '  ' })).toMatchObject({
      ok: false,
      message: 'Give an assessment name or ID.',
    });
  });

  it('signal lists: names become id:label, IDs and labels pass through; outputs keep only the ID', async () => {
    const text = `score ${id(11)} workspace=${W1} signals="inlet temperature, ${S2}:outlet,${id(40)}" range=today outputs="Outlet pressure"`;
    const out = await namesOf(text);
    expect(out).toMatchObject({
      ok: true,
      resolved: [
        { key: 'signals', text: 'inlet temperature', id: S1, name: 'inlet temperature' },
        { key: 'outputs', text: 'Outlet pressure', id: S2, name: 'outlet pressure' },
      ],
    });
    expect(out.ok && parseCommand(text, { names: out.names })).toMatchObject({
      ok: true,
      command: {
        data: {
          signals: [
            { signal: S1, name: 'inlet temperature' },
            { signal: S2, name: 'outlet' },
            { signal: id(40), name: id(40) },
          ],
        },
        output: { kind: 'signals', signals: [{ signal: S2, name: S2 }] },
      },
    });
    const bad = await namesOf(`learn workspace=${W1} signals="${S1},pressure sensor" range=today`);
    expect(bad).toMatchObject({
      ok: false,
      key: 'signals',
      resolution: { reason: 'unknown', text: 'pressure sensor' },
    });
  });

  it("another team's names do not resolve", async () => {
    const r = await resolveName(store, { teamId: 'T0OTHER', kind: WORKSPACE, text: 'Pump station A' });
    expect(r).toMatchObject({ ok: false, reason: 'unknown', candidates: [] });
    expect(await resolveName(store, { teamId: 'T0OTHER', kind: WORKSPACE, text: W1 })).toEqual({
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
      new RegExp(`^\`model=\`: 2 models are named "Baseline": .*${id(12)}.*${id(11)}.*Give the ID instead`),
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

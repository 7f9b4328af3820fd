import { beforeEach, describe, expect, it } from 'vitest';
import {
  type Candidate,
  candidateLabel,
  decodeCandidateValue,
  fitText,
  OPTION_TEXT_MAX,
  pickedWithLabels,
  recordOperation,
  searchCandidates,
} from '../../src/core/catalog/index.js';
import type { CatalogUpsert, Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';
import { recordFlowResult } from '../support/flow-results.js';

const T0 = Date.UTC(2026, 10, 22, 9, 0, 0);
const TEAM = 'T0PLANT';
const id = (n: number) => `13538537194233${String(n).padStart(5, '0')}`;
const W1 = id(1);
const W2 = id(2);
const W3 = id(3);

const ids = (cs: Candidate[]) => cs.map((c) => c.id);
const labels = (cs: Candidate[]) => cs.map((c) => c.label);

describe('type-ahead options from the catalog', () => {
  let store: Store;
  storeForEachTest((s) => {
    store = s;
  });
  beforeEach(async () => {
    // Filled the way the bot fills it: service replies, then commands, then finished flows.
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
    await recordFlowResult(store, {
      teamId: TEAM,
      now: () => T0 + 4,
      workspaceId: W1,
      model: { id: id(11), name: 'Pump A anomaly', created: true },
      dataspec: { id: id(21), name: 'learn by @alice 2026-11-20 10:00Z' },
    });
    await recordFlowResult(store, {
      teamId: TEAM,
      now: () => T0 + 5,
      workspaceId: W2,
      model: { id: id(12), name: 'Pump B anomaly', created: true },
    });
    await recordFlowResult(store, {
      teamId: TEAM,
      now: () => T0 + 6,
      workspaceId: W1,
      model: { id: id(13), name: 'Pump A retrained', created: true },
    });
  });

  it("offers the channel's default first, then the most recent, labelled with name and ID", async () => {
    const all = await searchCandidates(store, { teamId: TEAM, kind: 'workspace' });
    // The flows used W1 and W2 after the three were shown.
    expect(labels(all)).toEqual([
      `Pump station A · ${W1}`,
      `Pump station B · ${W2}`,
      `Compressor hall · ${W3}`,
    ]);
    expect(all.every((c) => c.value === c.id && c.origin === 'catalog' && !c.preferred)).toBe(true);
    const withDefault = await searchCandidates(store, {
      teamId: TEAM,
      kind: 'workspace',
      prefer: [W3, undefined],
    });
    expect(ids(withDefault)).toEqual([W3, W1, W2]);
    expect(withDefault[0]).toMatchObject({
      preferred: true,
      description: 'channel default',
      name: 'Compressor hall',
    });
  });

  it('matches part of a name or of an ID', async () => {
    expect(
      labels(await searchCandidates(store, { teamId: TEAM, kind: 'workspace', text: 'pump st' })),
    ).toEqual([`Pump station A · ${W1}`, `Pump station B · ${W2}`]);
    expect(ids(await searchCandidates(store, { teamId: TEAM, kind: 'workspace', text: 'HALL' }))).toEqual([
      W3,
    ]);
    expect(ids(await searchCandidates(store, { teamId: TEAM, kind: 'workspace', text: '00001' }))).toEqual([
      W1,
    ]);
    expect(
      ids(await searchCandidates(store, { teamId: TEAM, kind: 'workspace', text: W1.slice(0, 12) })),
    ).toEqual([W1, W2, W3]);
    expect(await searchCandidates(store, { teamId: TEAM, kind: 'workspace', text: 'turbine' })).toEqual([]);
  });

  it('narrows by the chosen workspace: only its models are offered', async () => {
    const inW1 = await searchCandidates(store, { teamId: TEAM, kind: 'model', links: { workspace: W1 } });
    expect(labels(inW1)).toEqual([`Pump A retrained · ${id(13)}`, `Pump A anomaly · ${id(11)}`]);
    const typed = await searchCandidates(store, {
      teamId: TEAM,
      kind: 'model',
      text: 'anomaly',
      links: { workspace: W2 },
    });
    expect(ids(typed)).toEqual([id(12)]);
    const specs = await searchCandidates(store, { teamId: TEAM, kind: 'dataspec', links: { model: id(11) } });
    expect(labels(specs)).toEqual([`learn by @alice 2026-11-20 10:00Z · ${id(21)}`]);
    // A default outside the chosen workspace is not offered.
    const narrowed = await searchCandidates(store, {
      teamId: TEAM,
      kind: 'model',
      prefer: [id(12)],
      links: { workspace: W1 },
    });
    expect(ids(narrowed)).toEqual([id(13), id(11)]);
  });

  it('an ID the bot has never seen is offered first as "use ID …"; a known one by its name', async () => {
    const unseen = id(999);
    const out = await searchCandidates(store, { teamId: TEAM, kind: 'workspace', text: ` ${unseen} ` });
    expect(out).toEqual([
      {
        id: unseen,
        label: `use ID ${unseen}`,
        value: unseen,
        description: 'not seen by the bot yet',
        origin: 'typed',
      },
    ]);
    expect(labels(await searchCandidates(store, { teamId: TEAM, kind: 'workspace', text: W2 }))).toEqual([
      `Pump station B · ${W2}`,
    ]);
    // Known, but not in the chosen workspace: still offered, saying so.
    const elsewhere = await searchCandidates(store, {
      teamId: TEAM,
      kind: 'model',
      text: id(12),
      links: { workspace: W1 },
    });
    expect(elsewhere).toEqual([
      expect.objectContaining({
        id: id(12),
        label: `Pump B anomaly · ${id(12)}`,
        description: 'not known in the chosen workspace',
        origin: 'catalog',
      }),
    ]);
    // A short number is part of an ID, not an ID: no "use ID".
    expect(await searchCandidates(store, { teamId: TEAM, kind: 'workspace', text: '12345' })).toEqual([]);
  });

  it('a channel default the catalog has never seen is still offered, unless the field is narrowed', async () => {
    const unseen = id(500);
    const out = await searchCandidates(store, { teamId: TEAM, kind: 'workspace', prefer: [W2, unseen] });
    expect(out.slice(0, 3)).toEqual([
      expect.objectContaining({ id: W2, preferred: true }),
      {
        id: unseen,
        label: unseen,
        value: unseen,
        description: 'channel default',
        origin: 'typed',
        preferred: true,
      },
      expect.objectContaining({ id: W1 }),
    ]);
    expect(
      ids(await searchCandidates(store, { teamId: TEAM, kind: 'workspace', text: 'pump', prefer: [unseen] })),
    ).toEqual([W1, W2]);
    expect(
      ids(
        await searchCandidates(store, {
          teamId: TEAM,
          kind: 'model',
          prefer: [unseen],
          links: { workspace: W2 },
        }),
      ),
    ).toEqual([id(12)]);
    const typedDefault = await searchCandidates(store, {
      teamId: TEAM,
      kind: 'workspace',
      text: unseen,
      prefer: [unseen],
    });
    expect(typedDefault).toEqual([
      expect.objectContaining({
        label: `use ID ${unseen}`,
        description: 'channel default, not seen by the bot yet',
      }),
    ]);
  });

  it('keeps labels and values within 75 characters and returns at most 100 options', async () => {
    const long = 'Very long workspace name for the north compressor hall, line 3, second floor, bay 12';
    const many: CatalogUpsert[] = Array.from({ length: 150 }, (_, i) => ({
      kind: 'workspace',
      id: id(1000 + i),
      name: `${long} #${i}`,
      source: 'service',
    }));
    await store.upsertCatalog(TEAM, many, T0 + 100);
    const out = await searchCandidates(store, { teamId: TEAM, kind: 'workspace', text: 'north', limit: 500 });
    expect(out).toHaveLength(100);
    for (const c of out) {
      expect(c.label.length).toBeLessThanOrEqual(OPTION_TEXT_MAX);
      expect(c.value.length).toBeLessThanOrEqual(OPTION_TEXT_MAX);
      expect(c.label.endsWith(` · ${c.id}`)).toBe(true);
      expect(c.label).toContain('…');
    }
    expect(await searchCandidates(store, { teamId: TEAM, kind: 'workspace', limit: 3 })).toHaveLength(3);
    const withTyped = await searchCandidates(store, {
      teamId: TEAM,
      kind: 'workspace',
      text: id(5000),
      limit: 1,
    });
    expect(labels(withTyped)).toEqual([`use ID ${id(5000)}`]);
  });

  it('signals keep their labels: in the option value, and back from several picks', async () => {
    const long = 'x'.repeat(60);
    await recordOperation(store, {
      teamId: TEAM,
      now: () => T0 + 10,
      request: {
        kind: 'learn',
        name: 'learn',
        workspaceId: W1,
        data: {
          kind: 'inline',
          signals: [
            { signal: id(31), name: 'temperature' },
            { signal: id(32), name: id(32) },
            { signal: id(33), name: long },
          ],
          ranges: [],
          dataspecName: 'learn',
        },
      },
    });
    const out = await searchCandidates(store, { teamId: TEAM, kind: 'signal', labelled: true });
    // Recorded together, so in ID order; the long label does not fit a value beside its ID.
    expect(out.map((c) => [c.label, c.value])).toEqual([
      [`temperature · ${id(31)}`, `${id(31)}:temperature`],
      [id(32), id(32)],
      [`${fitText(long, OPTION_TEXT_MAX - 3 - 19)} · ${id(33)}`, id(33)],
    ]);
    const picked = await pickedWithLabels(
      store,
      TEAM,
      'signal',
      out.map((c) => c.value),
    );
    expect(picked).toEqual([
      { signal: id(31), name: 'temperature' },
      { signal: id(32), name: id(32) },
      { signal: id(33), name: long },
    ]);
    expect(
      await pickedWithLabels(store, TEAM, 'signal', ['nonsense', `${id(40)}:flow`, `${id(40)}:again`]),
    ).toEqual([{ signal: id(40), name: 'flow' }]);
  });

  it('another team sees none of it, and can still type any ID', async () => {
    expect(await searchCandidates(store, { teamId: 'T0OTHER', kind: 'workspace' })).toEqual([]);
    expect(await searchCandidates(store, { teamId: 'T0OTHER', kind: 'workspace', text: 'pump' })).toEqual([]);
    expect(await searchCandidates(store, { teamId: 'T0OTHER', kind: 'workspace', text: W1 })).toEqual([
      expect.objectContaining({ label: `use ID ${W1}`, origin: 'typed' }),
    ]);
    expect(await pickedWithLabels(store, 'T0OTHER', 'signal', [id(31)])).toEqual([
      { signal: id(31), name: id(31) },
    ]);
  });
});

describe('option text helpers', () => {
  it('cuts without splitting characters and keeps the ID whole', () => {
    expect(fitText('short')).toBe('short');
    const cut = fitText('🙂'.repeat(50));
    expect(cut.length).toBeLessThanOrEqual(75);
    expect(cut.endsWith('🙂…')).toBe(true);
    expect(candidateLabel(W1, null)).toBe(W1);
    expect(candidateLabel(W1, 'a'.repeat(200))).toMatch(new RegExp(`^a+… · ${W1}$`));
    expect(candidateLabel(W1, 'a'.repeat(200)).length).toBe(75);
  });

  it('reads option values back', () => {
    expect(decodeCandidateValue(W1)).toEqual({ id: W1 });
    expect(decodeCandidateValue(`${W1}:inlet: temp`)).toEqual({ id: W1, name: 'inlet: temp' });
    expect(decodeCandidateValue(`${W1}:`)).toEqual({ id: W1 });
    expect(decodeCandidateValue('pump')).toBeNull();
  });
});

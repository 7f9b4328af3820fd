import { beforeEach, describe, expect, it } from 'vitest';
import { selectFieldOf } from '../../src/core/forms/fields.js';
import { fieldOptions, heldOption, labelPicks } from '../../src/core/forms/options.js';
import type { Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';

const TEAM = 'T0PLANT';
const T0 = Date.UTC(2026, 10, 22, 9);
const id = (n: number) => `13538537194233${String(n).padStart(5, '0')}`;
const W1 = id(1);
const W2 = id(2);
const M1 = id(11);
const S1 = id(31);
const S2 = id(32);

describe('the options of a form field', () => {
  let store: Store;
  storeForEachTest((s) => {
    store = s;
  });
  beforeEach(async () => {
    await store.upsertCatalog(
      TEAM,
      [
        { kind: 'workspace', id: W1, name: 'Pump station A', source: 'service' },
        { kind: 'workspace', id: W2, name: 'Sandbox', source: 'service' },
        { kind: 'model', id: M1, name: 'Baseline', source: 'service', links: { workspace: W1 } },
        { kind: 'signal', id: S1, name: 'inlet temperature', source: 'command' },
        { kind: 'signal', id: S2, name: 'x'.repeat(60), source: 'command' },
      ],
      T0,
    );
  });

  const options = (
    q: Partial<Parameters<typeof fieldOptions>[1]> & Pick<Parameters<typeof fieldOptions>[1], 'field'>,
  ) => fieldOptions(store, { teamId: TEAM, text: '', ...q });

  it("offers the picked model's workspace first, after the channel's default", async () => {
    const os = await options({ form: 'relearn', field: 'workspace', picked: { model: M1 } });
    expect(os.map((o) => o.id)).toEqual([W1, W2]);
    const withDefault = await options({
      form: 'relearn',
      field: 'workspace',
      picked: { model: M1 },
      defaults: { workspace: W2 },
    });
    expect(withDefault.map((o) => [o.id, o.description])).toEqual([
      [W2, 'channel default'],
      [W1, "the chosen model's workspace"],
    ]);
  });

  it('narrows by the picked workspace; with none of its models known, offers all, saying so', async () => {
    expect(
      (await options({ form: 'score', field: 'model', picked: { workspace: W1 } })).map((o) => o.id),
    ).toEqual([M1]);
    const elsewhere = await options({ form: 'score', field: 'model', picked: { workspace: W2 } });
    expect(elsewhere).toMatchObject([{ id: M1, description: 'not known in the chosen workspace' }]);
    // Without a readable form, nothing narrows.
    expect((await options({ field: 'model', picked: { workspace: W2 } }))[0]?.description).toBeUndefined();
  });

  it('signals carry their label when it fits, outputs never; a typed id:label is offered first', async () => {
    const signals = await options({ form: 'learn', field: 'signals' });
    // The 60-character name leaves no room in the value: the catalog gives it at submission.
    expect(signals.map((o) => o.value).sort()).toEqual([`${S1}:inlet temperature`, S2].sort());
    const outputs = await options({ form: 'score', field: 'outputs' });
    expect(outputs.map((o) => o.value).sort()).toEqual([S1, S2].sort());
    const typed = await options({ form: 'learn', field: 'signals', text: `${S1} : Bearing temp` });
    expect(typed[0]).toMatchObject({
      value: `${S1}:Bearing temp`,
      label: `Bearing temp · ${S1}`,
      description: 'as typed; the bot knows it as inlet temperature',
    });
    expect(typed[1]).toMatchObject({ value: `${S1}:inlet temperature` });
    // A label with a comma cannot be told from a list: no such option.
    expect(
      (await options({ form: 'learn', field: 'signals', text: `${S1}:a,b` })).map((o) => o.value),
    ).toEqual([]);
  });

  it("another team's entries are never offered", async () => {
    expect(await fieldOptions(store, { teamId: 'T0OTHER', field: 'workspace', text: 'pump' })).toEqual([]);
  });

  it('a picked signal is run with its label: the one it carries, else the catalog name', async () => {
    expect(
      await labelPicks(
        store,
        TEAM,
        selectFieldOf('learn', 'signals')!,
        `${S1}\n${S2}:mine\nbogus\n${id(99)}`,
      ),
    ).toBe(`${S1}:inlet temperature\n${S2}:mine\nbogus\n${id(99)}`);
  });

  it('shows what a form holds by name when known', () => {
    expect(heldOption(W1, { [W1]: 'Pump station A' })).toEqual({ text: `Pump station A · ${W1}`, value: W1 });
    expect(heldOption(`${S1}:temp`)).toEqual({ text: `temp · ${S1}`, value: `${S1}:temp` });
    expect(heldOption('Pump station A')).toEqual({ text: 'Pump station A', value: 'Pump station A' });
    expect(heldOption('x'.repeat(80))).toBeUndefined();
    expect(heldOption('  ')).toBeUndefined();
  });
});

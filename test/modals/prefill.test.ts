import { describe, expect, it } from 'vitest';
import { commandLineOf } from '../../src/core/forms/command-line.js';
import { decodeDraft, encodeDraft } from '../../src/core/forms/draft.js';
import type { ModalFields } from '../../src/core/forms/fields.js';
import { defaultedFields, fieldsFromCommand } from '../../src/core/forms/prefill.js';

const WS = '1353853719423311872';
const SIG = '1353853719423311876';

describe('fieldsFromCommand', () => {
  it('maps the command parser keys to fields, one signal and one range per line/input', () => {
    expect(
      fieldsFromCommand('learn', {
        workspace: WS,
        signals: `${SIG}:temp, 1353853719423311877`,
        range: 'yesterday; Nov 1 to Nov 3',
        'model-name': 'm1',
        name: 'n',
        description: 'd',
      }),
    ).toEqual({
      workspace: WS,
      signals: `${SIG}:temp\n1353853719423311877`,
      ranges: ['yesterday', 'Nov 1 to Nov 3'],
      modelName: 'm1',
      name: 'n',
      description: 'd',
      dataMode: 'new',
    });
    expect(fieldsFromCommand('score', { model: '1', dataspec: '2', outputs: `${SIG}:s,3` })).toEqual({
      model: '1',
      dataspecId: '2',
      dataMode: 'dataspec',
      outputs: `${SIG}:s\n3`,
      outputMode: 'map',
    });
    expect(fieldsFromCommand('eval', { assessment: 'a', entities: 'p1,p2', range: 'yesterday' })).toEqual({
      assessment: 'a',
      entities: 'p1, p2',
      ranges: ['yesterday'],
    });
  });
});

describe('defaultedFields', () => {
  it('keeps the channel-default keys the form shows, in its order', () => {
    expect(defaultedFields('eval', ['entities', 'workspace', 'model', 'bogus'])).toEqual([
      'model',
      'entities',
    ]);
    expect(defaultedFields('learn', ['entities', 'workspace', 'model'])).toEqual(['workspace']);
  });
});

describe('drafts', () => {
  it('round-trip every typed value of the fields its form has', () => {
    const fields: ModalFields = {
      channel: 'C1',
      name: 'n "quoted"',
      description: 'multi\nline',
      workspace: WS,
      model: 'm',
      dataMode: 'dataspec',
      signals: 's',
      dataspecName: 'dn',
      dataspecId: 'di',
      outputMode: 'map',
      prefix: 'p',
      outputs: 'o',
      repeat: 'every day at 06:00',
      ranges: ['yesterday', '', 'today'],
    };
    expect(decodeDraft(encodeDraft({ kind: 'score', userId: 'U1', channel: 'C2', fields }))).toEqual({
      kind: 'score',
      userId: 'U1',
      channel: 'C2',
      fields,
    });
    // Fields of other forms, and a radio's value that is none of its options, are left out.
    const elsewhere = { ...fields, modelName: 'mn', assessment: 'a' };
    const forged = encodeDraft({ kind: 'score', userId: 'U1', fields: elsewhere }).replace(
      '"map"',
      '"sideways"',
    );
    const { outputMode: _, ...kept } = fields;
    expect(decodeDraft(forged)?.fields).toEqual(kept);
    expect(decodeDraft('{"k":"score"}')).toBeUndefined();
    expect(decodeDraft('nonsense')).toBeUndefined();
  });
});

describe('commandLineOf', () => {
  it('renders the equivalent one-line command', () => {
    expect(
      commandLineOf('score', {
        model: '9',
        workspace: WS,
        dataMode: 'new',
        signals: `${SIG}:Bearing temp\n5`,
        ranges: ['yesterday', '', 'Nov 1'],
        outputMode: 'prefix',
        prefix: 'p/q',
        name: 'nightly',
      }),
    ).toBe(
      `/tsai score 9 workspace=${WS} signals="${SIG}:Bearing temp,5" range="yesterday; Nov 1" prefix=p/q name=nightly`,
    );
    expect(
      commandLineOf('eval', {
        assessment: 'a1',
        model: 'm',
        datastream: 'd',
        entities: 'p1\np2',
        ranges: ['last 3 days'],
      }),
    ).toBe('/tsai eval a1 model=m datastream=d entities=p1,p2 range="last 3 days"');
  });
});

import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/core/grammar/commands.js';
import { nameKey, parseCommand } from '../../src/core/grammar/parse.js';
import { tokenize } from '../../src/core/grammar/tokenize.js';

const W = '1353853719423311872';
const M = '1353853719423311873';
const A = '1353853719423311874';
const D = '1353853719423311875';
const S1 = '1353853719423311876';
const S2 = '1353853719423311877';
const DS = '1353853719423311878';
const F = '1353853719423311879';

describe('tokenize', () => {
  it.each([
    [
      'a b  c',
      [
        ['p', 'a'],
        ['p', 'b'],
        ['p', 'c'],
      ],
    ],
    [
      'name="Pump 3" x',
      [
        ['k', 'name', 'Pump 3'],
        ['p', 'x'],
      ],
    ],
    ["name='Pump 3'", [['k', 'name', 'Pump 3']]],
    ['name=“Pump 3”', [['k', 'name', 'Pump 3']]],
    ['name=‘Pump 3’', [['k', 'name', 'Pump 3']]],
    [
      '“two words” plain',
      [
        ['p', 'two words'],
        ['p', 'plain'],
      ],
    ],
    [
      'Model_Name=x MODEL-NAME=y',
      [
        ['k', 'model-name', 'x'],
        ['k', 'model-name', 'y'],
      ],
    ],
    ['"a=b"', [['p', 'a=b']]],
    ['=x', [['p', '=x']]],
    ['range=a=b', [['k', 'range', 'a=b']]],
    [
      '&lt;!channel&gt; &amp;',
      [
        ['p', '<!channel>'],
        ['p', '&'],
      ],
    ],
    ['plant’s', [['p', 'plant’s']]],
    [
      'k="" next',
      [
        ['k', 'k', ''],
        ['p', 'next'],
      ],
    ],
    // Read by UTF-16 unit: a surrogate pair stays whole, and every whitespace `\s` knows separates.
    [
      'name=😀pump\u00a0x\u3000y\u2028"😀 a"',
      [
        ['k', 'name', '😀pump'],
        ['p', 'x'],
        ['p', 'y'],
        ['p', '😀 a'],
      ],
    ],
    [
      '\ud83d=x \ude00',
      [
        ['p', '\ud83d=x'],
        ['p', '\ude00'],
      ],
    ],
  ])('%s', (text, expected) => {
    const out = tokenize(text);
    if (!out.ok) throw new Error(out.error);
    expect(out.tokens.map((t) => (t.kind === 'positional' ? ['p', t.value] : ['k', t.key, t.value]))).toEqual(
      expected,
    );
  });

  it('reports an unclosed quote', () => {
    const out = tokenize('name="Pump 3');
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatch(/not closed/);
  });
});

describe('parseCommand: valid commands', () => {
  it.each([
    ['', { kind: 'help' }],
    ['help', { kind: 'help' }],
    ['HELP Learn', { kind: 'help', topic: 'learn' }],
    ['help workspace create', { kind: 'help', topic: 'workspace create' }],
    ['workspace create Pump', { kind: 'workspace-create', name: 'Pump' }],
    [
      'workspace create Pump station 3 description=New pumps here',
      {
        kind: 'workspace-create',
        name: 'Pump station 3',
        description: 'New pumps here',
      },
    ],
    ['workspace create name="<!channel> *bold*"', { kind: 'workspace-create', name: '<!channel> *bold*' }],
    [`workspace show ${W}`, { kind: 'workspace-show', workspaceId: W }],
    [`Workspace SHOW workspace=${W}`, { kind: 'workspace-show', workspaceId: W }],
    [`model move ${M} to ${W}`, { kind: 'model-move', modelId: M, workspaceId: W }],
    [`model move ${M} ${W}`, { kind: 'model-move', modelId: M, workspaceId: W }],
    [`model move ${M} workspace=${W}`, { kind: 'model-move', modelId: M, workspaceId: W }],
    [`model common ${A}`, { kind: 'model-common', assessmentId: A }],
    [
      `eval ${A} model=${M} datastream=${D} entities=pump-1,pump-2 range=yesterday 9am to 5pm`,
      {
        kind: 'eval',
        assessmentId: A,
        modelId: M,
        datastreamId: D,
        entities: ['pump-1', 'pump-2'],
        rangeText: 'yesterday 9am to 5pm',
      },
    ],
    [
      `eval ${A} model=${M} datastream=${D} entities="a, b" range="last 2 hours" name=backfill`,
      {
        kind: 'eval',
        assessmentId: A,
        modelId: M,
        datastreamId: D,
        entities: ['a', 'b'],
        rangeText: 'last 2 hours',
        name: 'backfill',
      },
    ],
    [`live start ${M}`, { kind: 'live', action: 'start', modelId: M }],
    [
      `live STOP assessment=${A} reason=new baseline`,
      { kind: 'live', action: 'stop', assessmentId: A, reason: 'new baseline' },
    ],
    [
      `learn workspace=${W} signals=${S1}:temp,${S2} range="last week"`,
      {
        kind: 'learn',
        workspaceId: W,
        data: {
          kind: 'inline',
          signals: [
            { signal: S1, name: 'temp' },
            { signal: S2, name: S2 },
          ],
          rangeText: 'last week',
        },
      },
    ],
    [
      `learn workspace=${W} dataspec=${DS} model_name="pump 3" name=mine description='why not'`,
      {
        kind: 'learn',
        workspaceId: W,
        data: { kind: 'dataspec', dataspecId: DS },
        modelName: 'pump 3',
        name: 'mine',
        description: 'why not',
      },
    ],
    [
      `relearn ${M} workspace=${W} signals=${S1} range=Nov 20 to Nov 21; Nov 22`,
      {
        kind: 'relearn',
        modelId: M,
        workspaceId: W,
        data: { kind: 'inline', signals: [{ signal: S1, name: S1 }], rangeText: 'Nov 20 to Nov 21; Nov 22' },
      },
    ],
    [
      `score ${M} workspace=${W} dataspec=${DS} prefix=p3`,
      {
        kind: 'score',
        modelId: M,
        workspaceId: W,
        data: { kind: 'dataspec', dataspecId: DS },
        output: { kind: 'prefix', prefix: 'p3' },
      },
    ],
    [
      `score ${M} workspace=${W} dataspec=${DS} outputs=${S1}:score,${S2}:threshold`,
      {
        kind: 'score',
        modelId: M,
        workspaceId: W,
        data: { kind: 'dataspec', dataspecId: DS },
        output: {
          kind: 'signals',
          signals: [
            { signal: S1, name: 'score' },
            { signal: S2, name: 'threshold' },
          ],
        },
      },
    ],
    [`flow ${F}`, { kind: 'flow', flowId: F }],
  ])('%s', (text, expected) => {
    const out = parseCommand(text);
    if (!out.ok) throw new Error(out.message);
    expect(out.command).toEqual(expected);
  });

  it('parses every example in the command table', () => {
    for (const spec of COMMANDS) {
      for (const example of spec.examples) {
        const out = parseCommand(example.replace(/^\/tsai\s*/, ''));
        expect(out.ok, `${example}: ${out.ok ? '' : out.message}`).toBe(true);
        if (out.ok) expect(out.spec.id).toBe(spec.id);
      }
    }
  });
});

describe('parseCommand: errors', () => {
  it.each([
    ['frobnicate', /`frobnicate` is not a command\. Commands: `help`, `workspace`/],
    ['workspace=1 show', /Start with a command/],
    ['workspace', /`workspace` needs a subcommand: use `create` or `show`/],
    ['workspace delete x', /`delete` is not a `workspace` subcommand/],
    ['workspace create', /needs a name/],
    ['workspace create x colour=red', /`colour=` is not an option of `workspace create`/],
    [
      'workspace show 12345678901234567890123',
      /is not a valid workspace ID: IDs are numbers of 18–19 digits/,
    ],
    ['workspace show 123', /`123` is not a valid workspace ID/],
    [`workspace show ${W} ${W}`, /Unexpected/],
    [`workspace show ${W} workspace=${W}`, /given twice/],
    ['model move', /needs a model and a destination workspace/],
    [`model move ${M}`, /needs a model and a destination workspace/],
    [`model move ${M} into ${W}`, /Unexpected/],
    ['model common', /needs an assessment/],
    [`eval ${A} model=${M} datastream=${D} entities=a,,b range=yesterday`, /`entities=` has an empty entry/],
    [`eval ${A} model=12 datastream=${D} entities=a range=yesterday`, /`12` is not a valid live model ID/],
    ['live', /needs `start` or `stop`/],
    [`live pause ${M}`, /`pause` is not a `live` action/],
    ['live start', /needs a model \(its ID or name\) or `assessment=<id>`/],
    [`live start ${M} assessment=${A}`, /not both/],
    [`learn workspace=${W} signals=${S1} range=x dataspec=${DS}`, /not both/],
    [`learn workspace=${W} signals=12:temp range=x`, /`12` in `signals=` is not a valid signal ID/],
    [`learn workspace=${W} signals=${S1}:temp,${S1} range=x`, /appears twice/],
    [`learn workspace=${W} signals=${S1}: range=x`, /empty label/],
    [`learn workspace=${W} range=x range=y`, /given twice/],
    [`learn workspace=${W} range=`, /`range=` has no value/],
    [`learn stray workspace=${W}`, /Unexpected `stray`/],
    [`score ${M} workspace=${W} dataspec=${DS} prefix=a outputs=${S1}`, /either `prefix=`.*not both/],
    [`score ${M} workspace=${W} dataspec=${DS} prefix="two words"`, /`prefix=` must be one word/],
    ['flow', /needs a flow ID/],
    ['flow 12ab', /not a valid flow ID/],
    ['help nonsense', /There is no command `nonsense`/],
    ['workspace create name="unclosed', /not closed/],
  ])('%s', (text, pattern) => {
    const out = parseCommand(text);
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.kind).toBe('error');
      expect(out.message).toMatch(pattern);
    }
  });
});

describe('parseCommand: missing arguments of modal commands', () => {
  it.each([
    ['learn', 'learn', ['workspace', 'signals', 'range'], {}],
    [`learn workspace=${W} signals=${S1}`, 'learn', ['range'], { workspace: W, signals: S1 }],
    ['relearn', 'relearn', ['model', 'workspace', 'signals', 'range'], {}],
    [`relearn ${M}`, 'relearn', ['workspace', 'signals', 'range'], { model: M }],
    [
      `score ${M} workspace=${W} dataspec=${DS}`,
      'score',
      ['prefix'],
      { model: M, workspace: W, dataspec: DS },
    ],
    [`eval ${A}`, 'eval', ['model', 'datastream', 'entities', 'range'], { assessment: A }],
    [
      `eval range="last week"`,
      'eval',
      ['assessment', 'model', 'datastream', 'entities'],
      { range: 'last week' },
    ],
  ])('%s', (text, command, missing, given) => {
    const out = parseCommand(text);
    expect(out.ok).toBe(false);
    if (!out.ok && out.kind === 'missing') {
      expect(out.command).toBe(command);
      expect(out.missing).toEqual(missing);
      expect(out.given).toEqual(given);
    } else throw new Error(`expected missing, got ${JSON.stringify(out)}`);
  });

  it('names the other side of a choice the person must make, as the entry declares it', () => {
    const out = parseCommand(`score ${M} workspace=${W} dataspec=${DS}`);
    expect(out).toMatchObject({ kind: 'missing', message: '`score` needs `prefix=` or `outputs=`.' });
  });
});

describe('parseCommand: channel defaults', () => {
  const defaults = { workspace: W, model: M, assessment: A, datastream: D, entities: 'pump-1,pump-2' };
  it('fills what was not typed and says which keys', () => {
    const out = parseCommand(`learn signals=${S1} range=yesterday`, { defaults });
    if (!out.ok) throw new Error(out.message);
    expect(out.command).toMatchObject({ kind: 'learn', workspaceId: W });
    expect(out.fromDefaults).toEqual(['workspace']);
  });
  it('lets typed arguments win, positional ones included', () => {
    const out = parseCommand(`eval ${S2.replace('77', '99')} datastream=${S1} range=yesterday`, { defaults });
    if (!out.ok) throw new Error(out.message);
    expect(out.command).toMatchObject({
      assessmentId: S2.replace('77', '99'),
      datastreamId: S1,
      modelId: M,
      entities: ['pump-1', 'pump-2'],
    });
    expect(out.fromDefaults).toEqual(['model', 'entities']);
  });
  it('reports defaults in a missing-arguments outcome, for prefilling a modal', () => {
    const out = parseCommand('relearn', { defaults });
    expect(out.ok).toBe(false);
    if (!out.ok && out.kind === 'missing') {
      expect(out.missing).toEqual(['signals', 'range']);
      expect(out.given).toEqual({ model: M, workspace: W });
      expect(out.fromDefaults).toEqual(['model', 'workspace']);
    } else throw new Error('expected missing');
  });
});

describe('parseCommand: names in quotes where IDs go', () => {
  const names = (entries: [string, string, string, string?][]) =>
    new Map(entries.map(([key, text, id, name]) => [nameKey(key, text), { id, ...(name ? { name } : {}) }]));

  it('reports every quoted name (and the IDs given with them) before anything is read as an ID', () => {
    const out = parseCommand(
      `learn workspace="Pump station A" signals="Bearing temp,${S2}:pressure,Motor current" range=today`,
    );
    expect(out).toMatchObject({
      ok: false,
      kind: 'names',
      names: [
        { key: 'workspace', text: 'Pump station A' },
        { key: 'signals', text: 'Bearing temp' },
        { key: 'signals', text: 'Motor current' },
      ],
      ids: {},
    });
    expect(parseCommand(`relearn “Baseline” workspace=${W} dataspec=${DS}`)).toMatchObject({
      kind: 'names',
      names: [{ key: 'model', text: 'Baseline' }],
      ids: { workspace: W, dataspec: DS },
    });
    expect(parseCommand(`model move 'Baseline' to "Sandbox"`)).toMatchObject({
      kind: 'names',
      names: [
        { key: 'model', text: 'Baseline' },
        { key: 'workspace', text: 'Sandbox' },
      ],
    });
  });

  it('reads the resolved IDs as if they had been typed; a signal takes its catalog name as label', () => {
    const out = parseCommand(
      `learn workspace="Pump station A" signals="Bearing temp,${S2}:pressure" range=today`,
      {
        names: names([
          ['workspace', 'Pump station A', W],
          ['signals', 'Bearing temp', S1, 'bearing temperature'],
        ]),
      },
    );
    if (!out.ok) throw new Error(out.message);
    expect(out.command).toMatchObject({
      kind: 'learn',
      workspaceId: W,
      data: {
        kind: 'inline',
        signals: [
          { signal: S1, name: 'bearing temperature' },
          { signal: S2, name: 'pressure' },
        ],
      },
    });
    const score = parseCommand(`score "Baseline" workspace=${W} dataspec="October" outputs="Scores"`, {
      names: names([
        ['model', 'Baseline', M],
        ['dataspec', 'October', DS],
        ['outputs', 'Scores', S2, 'anomaly scores'],
      ]),
    });
    if (!score.ok) throw new Error(score.message);
    // An output's label is the model's output name, not the signal's: it keeps the default.
    expect(score.command).toMatchObject({
      modelId: M,
      data: { kind: 'dataspec', dataspecId: DS },
      output: { kind: 'signals', signals: [{ signal: S2, name: S2 }] },
    });
    const use = parseCommand('use workspace="Pump station A"', {
      names: names([['workspace', 'Pump station A', W]]),
    });
    expect(use).toMatchObject({
      ok: true,
      command: { kind: 'use', action: 'set', values: { workspace: W } },
    });
    const live = parseCommand('live start assessment="Temperature anomaly"', {
      names: names([['assessment', 'Temperature anomaly', A]]),
    });
    expect(live).toMatchObject({ ok: true, command: { kind: 'live', assessmentId: A } });
  });

  it('prefills a form with the IDs the names stand for', () => {
    const out = parseCommand('learn workspace="Pump station A" signals="Bearing temp"', {
      names: names([
        ['workspace', 'Pump station A', W],
        ['signals', 'Bearing temp', S1, 'bearing temperature'],
      ]),
    });
    expect(out).toMatchObject({
      ok: false,
      kind: 'missing',
      missing: ['range'],
      given: { workspace: W, signals: `${S1}:bearing temperature` },
    });
  });

  it('reads a bare word that cannot be an ID as a name wherever a name may stand', () => {
    expect(parseCommand(`workspace show Sandbox`)).toMatchObject({
      kind: 'names',
      names: [{ key: 'workspace', text: 'Sandbox' }],
    });
    expect(parseCommand(`learn workspace=${W} signals=Bearing,${S2}:pressure range=today`)).toMatchObject({
      kind: 'names',
      names: [{ key: 'signals', text: 'Bearing', labelled: true }],
    });
    expect(parseCommand(`model move Baseline to Sandbox`)).toMatchObject({
      kind: 'names',
      names: [
        { key: 'model', text: 'Baseline' },
        { key: 'workspace', text: 'Sandbox' },
      ],
    });
  });

  it('keeps every other check: short numbers, names where only IDs go, repeats', () => {
    for (const [text, error] of [
      [
        'workspace show 12345',
        /`12345` is not a valid workspace ID.*may also be given by its name, e\.g\. `workspace="Pump station A"`/,
      ],
      ['workspace show "12345"', /`12345` is not a valid workspace ID/],
      [`learn workspace=${W} signals=1234 range=today`, /`1234` in `signals=` is not a valid signal ID/],
      [`flow "my flow"`, /`my flow` is not a valid flow ID/],
      [`flow abc`, /`abc` is not a valid flow ID/],
      [`workspace show "A" workspace=${W}`, /given twice/],
      [`learn workspace="A" signals="${S1},${S1}" range=x`, /appears twice/],
    ] as const) {
      const out = parseCommand(text);
      expect(out.ok, text).toBe(false);
      if (!out.ok) {
        expect(out.kind, text).toBe('error');
        expect(out.message, text).toMatch(error);
      }
    }
  });

  it('an error elsewhere in the command wins over names still to look up', () => {
    expect(parseCommand('learn workspace="Pump station A" bogus=1')).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/`bogus=` is not an option/),
    });
  });
});

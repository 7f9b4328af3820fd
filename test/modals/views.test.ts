import { describe, expect, it } from 'vitest';
import { type FormId, MAX_RANGES, rangeBlockId } from '../../src/core/forms/fields.js';
import { formIds } from '../../src/core/operations/registry/index.js';
import { buildModalView, type ModalViewInput } from '../../src/slack/forms/views/build.js';
import { MODAL_ACTION, MODAL_CALLBACK, RANGE_ACTIONS_BLOCK } from '../../src/slack/forms/views/ids.js';
import { decodeMeta, encodeMeta, initialRangeKeys } from '../../src/slack/forms/views/metadata.js';
import { checkBlockKitLimits } from '../../src/wire/block-kit.js';

// biome-ignore lint/suspicious/noExplicitAny: tests poke into Block Kit JSON by path
type Block = Record<string, any>;

function blocksOf(view: { blocks: unknown[] }): Block[] {
  return view.blocks as Block[];
}
function block(view: { blocks: unknown[] }, id: string): Block | undefined {
  return blocksOf(view).find((b) => b.block_id === id);
}

const LONG = 'x'.repeat(5000);

function worstCase(kind: FormId, shortcut: boolean): ModalViewInput {
  const { ranges, next } = initialRangeKeys(MAX_RANGES);
  return {
    meta: {
      kind,
      origin: shortcut ? 'shortcut' : 'command',
      channel: shortcut ? undefined : 'C0123456789',
      responseUrl: shortcut ? undefined : `https://hooks.slack.com/commands/T0/${'9'.repeat(200)}`,
      ranges,
      next,
      defaults: ['workspace', 'model', 'datastream', 'assessment', 'entities'],
    },
    fields: {
      name: LONG,
      description: LONG,
      workspace: LONG,
      modelName: LONG,
      model: LONG,
      dataMode: 'dataspec',
      signals: LONG,
      dataspecName: LONG,
      dataspecId: LONG,
      outputMode: 'map',
      prefix: LONG,
      outputs: LONG,
      assessment: LONG,
      datastream: LONG,
      entities: LONG,
      ranges: ranges.map(() => LONG),
    },
    previews: Object.fromEntries(ranges.map((k, i) => [rangeBlockId(k), { ok: i % 2 === 0, text: LONG }])),
    defaultName: LONG,
    timeZone: 'America/Argentina/ComodRivadavia',
    notes: [LONG, LONG],
  };
}

describe('modal builders', () => {
  it.each(formIds())('%s: every view stays within Block Kit limits, also in the worst case', (kind) => {
    for (const shortcut of [false, true]) {
      const view = buildModalView(worstCase(kind, shortcut));
      expect(checkBlockKitLimits(view, 'modal')).toEqual([]);
      const minimal = buildModalView({
        meta: { kind, origin: 'command', ...initialRangeKeys(0) },
        fields: {},
      });
      expect(checkBlockKitLimits(minimal, 'modal')).toEqual([]);
    }
  });

  it('prefills every field from the given values; resources as the picked options of type-ahead selects', () => {
    const id = (n: number) => `135385371942331187${n}`;
    const view = buildModalView({
      meta: { kind: 'score', origin: 'command', channel: 'C1', ...initialRangeKeys(2) },
      fields: {
        name: 'nightly score',
        description: 'pump 7',
        model: id(1),
        workspace: id(2),
        dataMode: 'dataspec',
        signals: `${id(3)}:temp\n${id(4)}`,
        dataspecName: 'ds',
        dataspecId: id(5),
        outputMode: 'map',
        prefix: 'p',
        outputs: `${id(6)}:score`,
        ranges: ['yesterday', 'today'],
      },
      names: { [id(2)]: 'Pump station A', [id(4)]: 'pressure' },
    });
    const value = (blockId: string) => block(view, blockId)?.element.initial_value;
    const picked = (blockId: string) => {
      const el = block(view, blockId)?.element;
      const options = el?.initial_options ?? (el?.initial_option ? [el.initial_option] : []);
      return options.map((o: Block) => [o.text.text, o.value]);
    };
    expect(value('name')).toBe('nightly score');
    expect(value('description')).toBe('pump 7');
    expect(block(view, 'model')?.element).toMatchObject({ type: 'external_select', min_query_length: 0 });
    expect(picked('model')).toEqual([[id(1), id(1)]]);
    expect(picked('workspace')).toEqual([[`Pump station A · ${id(2)}`, id(2)]]);
    expect(block(view, 'signals')?.element.type).toBe('multi_external_select');
    expect(picked('signals')).toEqual([
      [`temp · ${id(3)}`, `${id(3)}:temp`],
      [`pressure · ${id(4)}`, id(4)],
    ]);
    expect(value('dataspec_name')).toBe('ds');
    expect(picked('dataspec_id')).toEqual([[id(5), id(5)]]);
    expect(value('prefix')).toBe('p');
    expect(picked('outputs')).toEqual([[`score · ${id(6)}`, `${id(6)}:score`]]);
    expect(value(rangeBlockId(1))).toBe('yesterday');
    expect(value(rangeBlockId(2))).toBe('today');
    expect(block(view, 'data_mode')?.element.initial_option.value).toBe('dataspec');
    expect(block(view, 'output_mode')?.element.initial_option.value).toBe('map');
    expect(view.callback_id).toBe(MODAL_CALLBACK.score);
    expect(checkBlockKitLimits(view, 'modal')).toEqual([]);
  });

  it('each modal shows its own fields', () => {
    const ids = (kind: FormId) =>
      blocksOf(
        buildModalView({
          meta: { kind, origin: 'command', channel: 'C1', ...initialRangeKeys(1) },
          fields: {},
        }),
      )
        .filter((b) => b.type === 'input')
        .map((b) => b.block_id);
    expect(ids('learn')).toEqual([
      'name',
      'description',
      'workspace',
      'model_name',
      'data_mode',
      'signals',
      'range_1',
      'dataspec_name',
      'dataspec_id',
      'repeat',
    ]);
    expect(ids('relearn')).toEqual([
      'model',
      'workspace',
      'name',
      'description',
      'signals',
      'range_1',
      'dataspec_name',
      'repeat',
    ]);
    expect(ids('score')).toEqual([
      'name',
      'description',
      'model',
      'workspace',
      'data_mode',
      'signals',
      'range_1',
      'dataspec_name',
      'dataspec_id',
      'output_mode',
      'prefix',
      'outputs',
      'repeat',
    ]);
    expect(ids('eval')).toEqual([
      'assessment',
      'datastream',
      'model',
      'entities',
      'range_1',
      'name',
      'repeat',
    ]);
  });

  it('EVAL warns about overwriting live output; relearn says old ranges need not be repeated', () => {
    const meta = { origin: 'command' as const, channel: 'C1', ...initialRangeKeys(1) };
    const evalView = buildModalView({ meta: { ...meta, kind: 'eval' }, fields: {} });
    expect(block(evalView, 'overwrite_warning')?.text.text).toMatch(/already evaluated is overwritten/);
    const relearn = buildModalView({ meta: { ...meta, kind: 'relearn' }, fields: {} });
    expect(block(relearn, 'relearn_note')?.text.text).toMatch(/need not be repeated/);
    const learn = buildModalView({ meta: { ...meta, kind: 'learn' }, fields: {} });
    // The service's naming pattern in words, never its template text.
    const hint = block(learn, 'model_name')?.hint.text;
    expect(hint).toContain('Pump station A/anomaly/M[2]');
    expect(hint).not.toContain('{{');
  });

  it('range inputs dispatch on enter, keep stable ids, show previews, and offer add/remove up to 10', () => {
    const view = buildModalView({
      meta: { kind: 'learn', origin: 'command', channel: 'C1', ranges: [2, 5], next: 6 },
      fields: { ranges: ['yesterday', 'garbage'] },
      previews: {
        range_2: { ok: true, text: 'Fri 21 Nov 00:00 – Sat 22 Nov 00:00 UTC' },
        range_5: { ok: false, text: 'Could not understand "garbage"' },
      },
    });
    const r2 = block(view, 'range_2')!;
    expect(r2.dispatch_action).toBe(true);
    expect(r2.element.action_id).toBe(MODAL_ACTION.range);
    expect(r2.element.dispatch_action_config).toEqual({ trigger_actions_on: ['on_enter_pressed'] });
    expect(r2.hint.text).toBe('✅ Fri 21 Nov 00:00 – Sat 22 Nov 00:00 UTC');
    expect(block(view, 'range_5')!.hint.text).toBe('⚠️ Could not understand "garbage"');
    const actions = block(view, RANGE_ACTIONS_BLOCK)!.elements.map((e: Block) => [e.action_id, e.value]);
    expect(actions).toEqual([
      [MODAL_ACTION.addRange, 'add'],
      ['tsai_modal_range_remove:2', '2'],
      ['tsai_modal_range_remove:5', '5'],
    ]);

    const full = buildModalView({
      meta: { kind: 'learn', origin: 'command', channel: 'C1', ...initialRangeKeys(10) },
      fields: {},
    });
    const fullActions = block(full, RANGE_ACTIONS_BLOCK)!.elements.map((e: Block) => e.action_id);
    expect(fullActions).not.toContain(MODAL_ACTION.addRange);
    expect(fullActions).toHaveLength(10);
    const single = buildModalView({
      meta: { kind: 'score', origin: 'command', channel: 'C1', ...initialRangeKeys(1) },
      fields: {},
    });
    expect(block(single, RANGE_ACTIONS_BLOCK)!.elements.map((e: Block) => e.action_id)).toEqual([
      MODAL_ACTION.addRange,
    ]);
    // EVAL backfills one range per flow: no add button.
    const evalView = buildModalView({
      meta: { kind: 'eval', origin: 'command', channel: 'C1', ...initialRangeKeys(1) },
      fields: {},
    });
    expect(block(evalView, RANGE_ACTIONS_BLOCK)).toBeUndefined();
  });

  it('asks for a channel only when it does not know one (global shortcut)', () => {
    const shortcut = buildModalView({
      meta: { kind: 'score', origin: 'shortcut', ...initialRangeKeys(1) },
      fields: {},
    });
    expect(block(shortcut, 'channel')?.element.type).toBe('conversations_select');
    const command = buildModalView({
      meta: { kind: 'score', origin: 'command', channel: 'C1', ...initialRangeKeys(1) },
      fields: {},
    });
    expect(block(command, 'channel')).toBeUndefined();
  });
});

describe('private_metadata', () => {
  it('round-trips and rejects what it cannot read', () => {
    const meta = {
      kind: 'eval' as const,
      origin: 'command' as const,
      channel: 'C1',
      responseUrl: 'http://x/y',
      ranges: [1, 4],
      next: 7,
      defaults: ['workspace' as const],
      timeZone: 'Asia/Kolkata',
      userName: 'alice',
    };
    expect(decodeMeta(encodeMeta(meta))).toEqual(meta);
    expect(decodeMeta('not json')).toBeUndefined();
    expect(decodeMeta('{"k":"nope","o":"command","r":[1]}')).toBeUndefined();
    expect(decodeMeta('{"k":"learn","o":"command","r":[]}')).toBeUndefined();
  });

  it('drops an oversized response_url rather than exceed 3000 characters', () => {
    const text = encodeMeta({
      kind: 'learn',
      origin: 'command',
      channel: 'C1',
      responseUrl: `http://x/${'a'.repeat(4000)}`,
      ...initialRangeKeys(10),
    });
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(decodeMeta(text)?.responseUrl).toBeUndefined();
    expect(decodeMeta(text)?.ranges).toHaveLength(10);
  });
});

describe('checkBlockKitLimits', () => {
  it('reports every violated limit with its path', () => {
    const bad = {
      type: 'modal',
      title: { type: 'plain_text', text: 'A title that is much too long for Slack' },
      submit: { type: 'plain_text', text: 'ok' },
      private_metadata: 'm'.repeat(3001),
      blocks: [
        { type: 'header', block_id: 'h', text: { type: 'plain_text', text: 'h'.repeat(151) } },
        { type: 'section', block_id: 'h', text: { type: 'mrkdwn', text: 's'.repeat(3001) } },
        {
          type: 'input',
          block_id: 'b'.repeat(256),
          label: { type: 'plain_text', text: 'l'.repeat(2001) },
          hint: { type: 'plain_text', text: '' },
          element: {
            type: 'radio_buttons',
            action_id: 'r',
            options: Array.from({ length: 11 }, (_, i) => ({
              text: { type: 'plain_text', text: 'o'.repeat(76) },
              value: `${i}`.repeat(76),
            })),
          },
        },
        {
          type: 'actions',
          elements: [
            {
              type: 'button',
              action_id: 'a',
              text: { type: 'plain_text', text: 't'.repeat(76) },
              value: 'v',
            },
            {
              type: 'button',
              action_id: 'a',
              text: { type: 'plain_text', text: 't' },
              placeholder: { type: 'plain_text', text: 'p'.repeat(151) },
            },
          ],
        },
      ],
    };
    const problems = checkBlockKitLimits(bad, 'modal');
    const has = (re: RegExp) =>
      expect(
        problems.some((p) => re.test(p)),
        `${re} in\n${problems.join('\n')}`,
      ).toBe(true);
    has(/^title: text is 39 chars \(max 24\)/);
    has(/^private_metadata: private_metadata is 3001/);
    has(/^blocks\[0\]\.text: text is 151 chars \(max 150\)/);
    has(/^blocks\[1\]\.block_id: duplicate block_id "h"/);
    has(/^blocks\[1\]\.text: text is 3001/);
    has(/^blocks\[2\]\.block_id: block_id is 256/);
    has(/^blocks\[2\]\.label: text is 2001/);
    has(/^blocks\[2\]\.hint: text is empty/);
    has(/^blocks\[2\]\.element\.options: 11 options \(max 10\)/);
    has(/^blocks\[2\]\.element\.options\[0\]\.text: text is 76/);
    has(/^blocks\[2\]\.element\.options\[0\]\.value: value is 76/);
    has(/^blocks\[3\]\.elements\[0\]\.text: text is 76/);
    has(/^blocks\[3\]\.elements\[1\]\.action_id: duplicate action_id "a"/);
    has(/^blocks\[3\]\.elements\[1\]\.placeholder: text is 151/);

    const tooMany = { blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })) };
    expect(checkBlockKitLimits(tooMany, 'message')).toEqual(['blocks: 51 blocks (max 50)']);
    expect(checkBlockKitLimits(tooMany, 'modal')).toEqual(['title: missing']);
  });
});

describe('required time ranges', () => {
  it.each(formIds())(
    '%s: the range input is required only where nothing else can stand in for it',
    (kind) => {
      const { ranges, next } = initialRangeKeys(1);
      const view = buildModalView({
        meta: { kind, origin: 'command', channel: 'C0123456789', ranges, next, defaults: [] },
        fields: {},
        defaultName: 'x',
        timeZone: 'UTC',
      });
      const range = block(view, rangeBlockId(ranges[0]!));
      // Learn, relearn and score can reuse a dataspec ID instead; EVAL has exactly one range and no alternative.
      expect(range?.optional).toBe(kind !== 'eval');
    },
  );
});

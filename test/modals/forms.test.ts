import { describe, expect, it } from 'vitest';
import type { RangeInput } from '../../src/core/forms/fields.js';
import { previewRange } from '../../src/core/forms/preview.js';
import { type FormContext, type FormInput, validateModal } from '../../src/core/forms/validate.js';
import { describeRange } from '../../src/time/index.js';

// 2026-11-22 09:14 UTC = 14:44 in Asia/Kolkata; "yesterday" there is 21 Nov.
const NOW = new Date('2026-11-22T09:14:00Z');
const ctx = (over: Partial<FormContext> = {}): FormContext => ({
  now: NOW,
  timeZone: 'Asia/Kolkata',
  defaultName: 'learn by @alice 2026-11-22 09:14Z',
  needsChannel: false,
  ...over,
});
const ranges = (...texts: string[]): RangeInput[] =>
  texts.map((text, i) => ({ blockId: `range_${i + 1}`, text }));
const form = (over: Partial<FormInput>): FormInput => ({ ranges: ranges(''), ...over });
/** Independent oracle: an ISO instant as ns since epoch. */
const ns = (iso: string, extra = 0n) => BigInt(Date.parse(iso)) * 1_000_000n + extra;

const WS = '1353853719423311872';
const SIG = '1353853719423311999';
const SIG2 = '1353853719423311998';
const MODEL = '1353853719423312000';
const DS = '1353853719423311878';
const A = '1353853719423311874';
const D = '1353853719423311875';

describe('validateModal: learn', () => {
  it('resolves the request with ranges read in the user zone, sorted', () => {
    const out = validateModal(
      'learn',
      form({
        name: '  pump 7 baseline ',
        description: 'first try',
        workspace: WS,
        modelName: 'pump7/anomaly',
        dataMode: 'new',
        signals: `${SIG}:Bearing temp\n${SIG2}`,
        dataspecName: 'baseline',
        ranges: ranges('yesterday 9am to 5pm', '', '2026-11-01T00:00:00.123456789Z to 2026-11-02T00:00:00Z'),
      }),
      ctx(),
    );
    expect(out).toEqual({
      ok: true,
      channel: undefined,
      request: {
        kind: 'learn',
        name: 'pump 7 baseline',
        description: 'first try',
        workspaceId: WS,
        modelName: 'pump7/anomaly',
        data: {
          kind: 'inline',
          dataspecName: 'baseline',
          signals: [
            { signal: SIG, name: 'Bearing temp' },
            { signal: SIG2, name: SIG2 },
          ],
          ranges: [
            { startNs: ns('2026-11-01T00:00:00Z', 123456789n), endNs: ns('2026-11-02T00:00:00Z') },
            // 09:00–17:00 IST (UTC+5:30)
            { startNs: ns('2026-11-21T03:30:00Z'), endNs: ns('2026-11-21T11:30:00Z') },
          ],
        },
      },
    });
  });

  it('uses the default name and omits what was left empty; a dataspec ID reuses it', () => {
    const out = validateModal('learn', form({ workspace: WS, dataMode: 'dataspec', dataspecId: DS }), ctx());
    expect(out).toEqual({
      ok: true,
      channel: undefined,
      request: {
        kind: 'learn',
        name: 'learn by @alice 2026-11-22 09:14Z',
        workspaceId: WS,
        data: { kind: 'dataspec', dataspecId: DS },
      },
    });
  });

  it('the dataspec name defaults to the flow name', () => {
    const out = validateModal(
      'learn',
      form({ workspace: WS, signals: SIG, ranges: ranges('yesterday') }),
      ctx(),
    );
    expect(out.ok && out.request.kind === 'learn' && out.request.data).toMatchObject({
      kind: 'inline',
      dataspecName: 'learn by @alice 2026-11-22 09:14Z',
    });
  });

  it('reports every bad field at once', () => {
    const out = validateModal(
      'learn',
      form({
        workspace: 'W123',
        dataMode: 'new',
        signals: 'temp sensor',
        dataspecId: DS,
        ranges: ranges('yesturday', 'Nov 1 to Nov 3', 'Nov 2 9am to 5pm'),
      }),
      ctx({ needsChannel: true }),
    );
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(Object.keys(out.errors).sort()).toEqual(
      ['channel', 'workspace', 'signals', 'dataspec_id', 'range_1', 'range_3'].sort(),
    );
    expect(out.errors.workspace).toMatch(
      /"W123" is not a valid workspace ID: IDs are numbers of 18–19 digits, e\.g\. \d{19}/,
    );
    expect(out.errors.signals).toMatch(/Not a signal ID: "temp sensor"/);
    expect(out.errors.range_3).toMatch(/overlaps time range 2/);
    expect(out.errors.range_1).toMatch(/Examples:/);
  });

  it('no data at all: signals and range are both asked for', () => {
    const out = validateModal('learn', form({ workspace: WS }), ctx());
    expect(out.ok ? {} : out.errors).toEqual({
      signals: expect.stringMatching(/at least one signal/),
      range_1: expect.stringMatching(/at least one time range/),
    });
  });

  it('reuse mode with new data typed too is refused field by field', () => {
    const out = validateModal(
      'learn',
      form({
        workspace: WS,
        dataMode: 'dataspec',
        dataspecId: '',
        signals: SIG,
        ranges: ranges('yesterday'),
      }),
      ctx(),
    );
    expect(out.ok ? [] : Object.keys(out.errors).sort()).toEqual(['dataspec_id', 'range_1', 'signals']);
  });

  it('duplicate signals and too-long names are caught', () => {
    const out = validateModal(
      'learn',
      form({
        workspace: WS,
        name: 'n'.repeat(201),
        signals: `${SIG}\n${SIG}:again`,
        ranges: ranges('yesterday'),
      }),
      ctx(),
    );
    expect(out.ok ? {} : out.errors).toEqual({
      name: expect.stringMatching(/keep it to 200/),
      signals: expect.stringMatching(/listed twice/),
    });
  });
});

describe('validateModal: relearn and score', () => {
  it('relearn resolves model, workspace and the new data', () => {
    const out = validateModal(
      'relearn',
      form({ model: MODEL, workspace: WS, signals: SIG, ranges: ranges('2026-11-20 to 2026-11-21') }),
      ctx({ timeZone: 'UTC', defaultName: 'relearn by @alice' }),
    );
    expect(out).toEqual({
      ok: true,
      channel: undefined,
      request: {
        kind: 'relearn',
        name: 'relearn by @alice',
        modelId: MODEL,
        workspaceId: WS,
        data: {
          kind: 'inline',
          dataspecName: 'relearn by @alice',
          signals: [{ signal: SIG, name: SIG }],
          ranges: [{ startNs: ns('2026-11-20T00:00:00Z'), endNs: ns('2026-11-22T00:00:00Z') }],
        },
      },
    });
  });

  it('score: exactly one output mode', () => {
    const base = { model: MODEL, workspace: WS, dataMode: 'dataspec' as const, dataspecId: DS };
    const prefix = validateModal(
      'score',
      form({ ...base, outputMode: 'prefix', prefix: 'pump-7/anomaly' }),
      ctx(),
    );
    expect(prefix).toMatchObject({
      ok: true,
      request: { output: { kind: 'prefix', prefix: 'pump-7/anomaly' } },
    });
    const map = validateModal('score', form({ ...base, outputs: `${SIG}:score\n${SIG2}:level` }), ctx());
    expect(map).toMatchObject({
      ok: true,
      request: {
        kind: 'score',
        modelId: MODEL,
        output: {
          kind: 'signals',
          signals: [
            { signal: SIG, name: 'score' },
            { signal: SIG2, name: 'level' },
          ],
        },
      },
    });

    const neither = validateModal('score', form(base), ctx());
    expect(neither.ok ? [] : Object.keys(neither.errors)).toEqual(['output_mode']);
    const both = validateModal('score', form({ ...base, prefix: 'p', outputs: SIG }), ctx());
    expect(both.ok ? [] : Object.keys(both.errors).sort()).toEqual(['output_mode', 'outputs', 'prefix']);
    const chosenButOther = validateModal(
      'score',
      form({ ...base, outputMode: 'map', prefix: 'p', outputs: SIG }),
      ctx(),
    );
    expect(chosenButOther.ok ? [] : Object.keys(chosenButOther.errors)).toEqual(['prefix']);
    const badPrefix = validateModal(
      'score',
      form({ ...base, outputMode: 'prefix', prefix: 'has space' }),
      ctx(),
    );
    expect(badPrefix.ok ? {} : badPrefix.errors).toEqual({
      prefix: expect.stringMatching(/cannot be a prefix/),
    });
  });

  it('score with bad data and bad outputs reports both', () => {
    const out = validateModal(
      'score',
      form({ model: 'm', workspace: WS, signals: SIG, outputs: 'x' }),
      ctx(),
    );
    expect(out.ok ? [] : Object.keys(out.errors).sort()).toEqual(['model', 'outputs', 'range_1']);
  });
});

describe('validateModal: eval', () => {
  it('resolves the EVAL request with a past range', () => {
    const ok = validateModal(
      'eval',
      form({
        assessment: A,
        datastream: D,
        model: MODEL,
        entities: 'pump-7, pump-8\npump-7',
        ranges: ranges('yesterday'),
      }),
      ctx({ timeZone: 'America/New_York', defaultName: 'eval by @alice' }),
    );
    expect(ok).toEqual({
      ok: true,
      channel: undefined,
      request: {
        kind: 'eval',
        name: 'eval by @alice',
        assessmentId: A,
        datastreamId: D,
        modelId: MODEL,
        entities: ['pump-7', 'pump-8'],
        // yesterday in New York (EST, UTC-5) is 21 Nov 00:00 to 22 Nov 00:00 local
        range: { startNs: ns('2026-11-21T05:00:00Z'), endNs: ns('2026-11-22T05:00:00Z') },
      },
    });
  });

  it('a future end and bad IDs are all reported', () => {
    const future = validateModal(
      'eval',
      form({
        assessment: 'x',
        datastream: '',
        model: MODEL,
        entities: ' ',
        ranges: ranges('tomorrow 9am to 5pm'),
      }),
      ctx(),
    );
    expect(future.ok ? [] : Object.keys(future.errors).sort()).toEqual([
      'assessment',
      'datastream',
      'entities',
      'range_1',
    ]);
    if (!future.ok) expect(future.errors.range_1).toMatch(/future/i);
  });
});

describe('previewRange', () => {
  it('echoes the range in the user zone and UTC, or the error with examples', () => {
    const ok = previewRange('yesterday 9am to 5pm', {
      now: NOW,
      timeZone: 'Asia/Kolkata',
      requirePast: false,
    });
    expect(ok).toEqual({
      ok: true,
      text: describeRange(
        { startNs: ns('2026-11-21T03:30:00Z'), endNs: ns('2026-11-21T11:30:00Z') },
        'Asia/Kolkata',
      ),
    });
    expect(ok?.text).toMatch(/IST.*03:30.*11:30 UTC/);
    const bad = previewRange('the day after the big storm', {
      now: NOW,
      timeZone: 'UTC',
      requirePast: false,
    });
    expect(bad?.ok).toBe(false);
    expect(bad?.text).toMatch(/Try e\.g\. "/);
    const future = previewRange('tomorrow', { now: NOW, timeZone: 'UTC', requirePast: true });
    expect(future).toMatchObject({ ok: false, text: expect.stringMatching(/future/i) });
    expect(previewRange('   ', { now: NOW, timeZone: 'UTC', requirePast: false })).toBeUndefined();
  });
});

// How the command path and the forms call the time module: every operation that reads data (each with
// a form and a time range, read from the registry) gets the same refusals, the user's locale decides numeric dates, and a form's preview
// shows exactly what its submission would send.
import { describe, expect, it } from 'vitest';
import { type FormId, formInputOf } from '../../src/core/forms/fields.js';
import { fieldsFromCommand } from '../../src/core/forms/prefill.js';
import { previewRange } from '../../src/core/forms/preview.js';
import { validateModal } from '../../src/core/forms/validate.js';
import { commandArguments, parseCommand } from '../../src/core/grammar/parse.js';
import { RANGE } from '../../src/core/kinds/index.js';
import type { AnyEntry } from '../../src/core/operations/registry/entry.js';
import { entryOfForm, REGISTRY } from '../../src/core/operations/registry/index.js';
import { type Resolvable, resolveCommand } from '../../src/core/operations/resolve.js';
import { decodeMeta, encodeMeta } from '../../src/slack/forms/views/metadata.js';
import { describeRange, type TimeRange } from '../../src/time/index.js';

// Sunday 22 Nov 2026, 10:00 UTC (as the end-to-end harness).
const NOW = new Date('2026-11-22T10:00:00Z');
const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;

/** Every operation with a form that reads a time range, read from the registry. */
const READS_DATA = REGISTRY.filter((e) => e.form && e.args.some((a) => a.kind === RANGE));
const KINDS: FormId[] = READS_DATA.map((e) => e.form!.id);

/** The arguments of an entry's first example that gives a range, with this range instead. */
function givenWith(kind: FormId, range: string): { entry: AnyEntry; given: Record<string, string> } {
  const entry = entryOfForm(kind)!;
  const key = entry.args.find((a) => a.kind === RANGE)!.key;
  const example = entry.command.examples.find((e) => commandArguments(e)?.given[key] !== undefined);
  if (!example) throw new Error(`no example of ${kind} gives ${key}=`);
  return { entry, given: { ...commandArguments(example)!.given, [key]: range } };
}

/** Every time range in a request, wherever its entry keeps it. */
function rangesIn(value: unknown): TimeRange[] {
  if (Array.isArray(value)) return value.flatMap(rangesIn);
  if (!value || typeof value !== 'object') return [];
  const v = value as Record<string, unknown>;
  if (typeof v.startNs === 'bigint' && typeof v.endNs === 'bigint') return [v as unknown as TimeRange];
  return Object.values(v).flatMap(rangesIn);
}

function commandRanges(kind: FormId, range: string, locale?: string): TimeRange[] | string {
  const { entry, given } = givenWith(kind, range);
  const positional = entry.args.find((a) => a.positional)?.key;
  const text = [
    ...entry.command.words,
    ...(positional && given[positional] ? [given[positional]] : []),
    ...Object.entries(given)
      .filter(([k]) => k !== positional)
      .map(([k, v]) => `${k}="${v.replace(/"/g, "'")}"`),
  ].join(' ');
  const out = parseCommand(text);
  if (!out.ok) throw new Error(`${text}: ${out.message}`);
  const r = resolveCommand(out.command as Resolvable, {
    userName: 'alice',
    timeZone: 'Europe/Berlin',
    now: NOW,
    ...(locale ? { locale } : {}),
  });
  if (!r.ok) return r.message;
  return rangesIn(r.operation);
}

function formRanges(kind: FormId, range: string, locale?: string): TimeRange[] | string {
  const fields = fieldsFromCommand(kind, givenWith(kind, range).given);
  const out = validateModal(kind, formInputOf(fields), {
    now: NOW,
    timeZone: 'Europe/Berlin',
    defaultName: 'x',
    needsChannel: false,
    ...(locale ? { locale } : {}),
  });
  if (!out.ok) return out.errors.range_1 ?? JSON.stringify(out.errors);
  return rangesIn(out.request);
}

it('the operations that read data are found in the registry', () => {
  expect(KINDS).toEqual(expect.arrayContaining(['eval', 'learn', 'relearn', 'score']));
});

describe('every operation that reads data refuses a range that is not over', () => {
  it.each(KINDS)('%s, by command and by form', (kind) => {
    for (const range of ['tomorrow', 'yesterday 9am to tomorrow 5pm', 'next week']) {
      expect(commandRanges(kind, range), range).toMatch(/ends in the future/);
      expect(formRanges(kind, range), range).toMatch(/ends in the future/);
      const preview = previewRange(range, { now: NOW, timeZone: 'Europe/Berlin', requirePast: true });
      expect(preview).toMatchObject({ ok: false, text: expect.stringMatching(/ends in the future/) });
    }
  });

  it.each(KINDS)('%s accepts "yesterday to today", which ends now', (kind) => {
    const want = [{ startNs: ns('2026-11-20T23:00:00Z'), endNs: ns('2026-11-22T10:00:00Z') }];
    expect(commandRanges(kind, 'yesterday to today')).toEqual(want);
    expect(formRanges(kind, 'yesterday to today')).toEqual(want);
  });

  it.each(KINDS)('%s refuses a range before 1970 in plain words', (kind) => {
    for (const get of [commandRanges, formRanges]) {
      const msg = get(kind, '1969-12-31 to 1970-01-02');
      expect(msg).toMatch(/before 1 Jan 1970 00:00 UTC/);
      expect(msg).not.toMatch(/startTime|segments|spec\./);
    }
  });
});

describe("the user's locale decides 01/11/2025", () => {
  const NOV_1 = [{ startNs: ns('2025-10-31T23:00:00Z'), endNs: ns('2025-11-01T23:00:00Z') }];
  const JAN_11 = [{ startNs: ns('2025-01-10T23:00:00Z'), endNs: ns('2025-01-11T23:00:00Z') }];

  it.each(KINDS)('%s: de-DE day first, en-US month first, unknown refused', (kind) => {
    for (const get of [commandRanges, formRanges]) {
      expect(stripNotes(get(kind, '01/11/2025', 'de-DE'))).toEqual(NOV_1);
      expect(stripNotes(get(kind, '01/11/2025', 'en-US'))).toEqual(JAN_11);
      const refused = get(kind, '01/11/2025');
      expect(refused).toMatch(/could be 1 Nov 2025 \(day first\) or 11 Jan 2025 \(month first\)/);
      expect(refused).toMatch(/1 Nov 2025/);
    }
  });

  it('the echo says how the date was read', () => {
    const out = previewRange('01/11/2025', {
      now: NOW,
      timeZone: 'Europe/Berlin',
      requirePast: true,
      locale: 'de-DE',
    });
    expect(out).toEqual({
      ok: true,
      text: 'Sat 1 Nov 2025 00:00 – Sun 2 Nov 2025 00:00 CET (Fri 31 Oct 2025 23:00 – Sat 1 Nov 2025 23:00 UTC) [01/11/2025 = 1 Nov 2025 (day first, as in de-DE)]',
    });
  });

  it('a modal remembers the locale with the zone', () => {
    const meta = {
      kind: 'learn' as const,
      origin: 'command' as const,
      ranges: [1],
      next: 2,
      timeZone: 'Europe/Berlin',
      locale: 'de-DE',
    };
    expect(decodeMeta(encodeMeta(meta))?.locale).toBe('de-DE');
  });
});

describe('a form previews exactly what it would send', () => {
  const phrases = [
    'last night',
    'last weekend',
    'Monday 9am to Wednesday 5pm',
    'yesterday to today',
    'the last 3 days',
    '01/11/2025',
    'Nov 2025',
    'tomorrow',
    'next week',
    'last day',
    '1969-01-01 to 1969-01-02',
  ];
  it.each(KINDS)('%s', (kind) => {
    for (const locale of [undefined, 'en-GB']) {
      for (const phrase of phrases) {
        const sent = formRanges(kind, phrase, locale);
        const preview = previewRange(phrase, {
          now: NOW,
          timeZone: 'Europe/Berlin',
          requirePast: true,
          ...(locale ? { locale } : {}),
        });
        if (typeof sent === 'string') {
          expect(preview?.ok, phrase).toBe(false);
          expect(sent.split(' Examples:')[0]).toBe(preview?.text.split(' Try e.g.')[0]);
        } else {
          expect(preview, phrase).toEqual({
            ok: true,
            text: sent.map((r) => describeRange(r, 'Europe/Berlin')).join('; '),
          });
        }
      }
    }
  });
});

function stripNotes(r: TimeRange[] | string): { startNs: bigint; endNs: bigint }[] | string {
  return typeof r === 'string' ? r : r.map(({ startNs, endNs }) => ({ startNs, endNs }));
}

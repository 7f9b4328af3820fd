import { beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/core/grammar/commands.js';
import { isSentence, readSentence, type SentenceReading } from '../../src/core/plain/index.js';
import type { Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';

/**
 * The reader of plain requests, over a real store's catalog: what each command declares it is asked with
 * (`said`) is all it reads commands by, names come from the team's catalog, ranges from the time reader.
 */
const TEAM = 'T0PLANT';
const CHANNEL = 'C0OPS';
const W = '1030000000000000001';
const W2 = '1030000000000000002';
const T = '1050000000000000001';
const P = '1050000000000000002';
const M = '1070000000000000002';
const A = '1060000000000000001';
const NOW = new Date('2026-11-25T10:00:00Z');

let store: Store;
storeForEachTest((s) => {
  store = s;
});
beforeEach(async () => {
  const at = NOW.getTime();
  await store.upsertCatalog(
    TEAM,
    [
      { kind: 'workspace', id: W, name: 'Pump station A', source: 'service' },
      { kind: 'workspace', id: W2, name: 'Sandbox', source: 'service' },
      { kind: 'signal', id: T, name: 'temperature', source: 'service' },
      { kind: 'signal', id: P, name: 'pressure', source: 'service' },
      { kind: 'assessment', id: A, name: 'Temperature anomaly', source: 'service' },
      {
        kind: 'model',
        id: M,
        name: 'Pump station A/anomaly/M[1]',
        source: 'service',
        links: { workspace: W, assessment: A },
      },
    ],
    at,
  );
});

const read = (text: string, locale = 'en-US'): Promise<SentenceReading> =>
  readSentence(store, {
    text,
    teamId: TEAM,
    channelId: CHANNEL,
    now: () => NOW,
    person: async () => ({ timeZone: 'Europe/Berlin', locale }),
  });

const commandOf = async (text: string, locale?: string) => {
  const r = await read(text, locale);
  if (r.kind !== 'read') throw new Error(`${text}: ${JSON.stringify(r)}`);
  return r.reading;
};

describe('plain requests read into commands', () => {
  it('reads every command by the phrases it declares, and no command that declares none', async () => {
    const declared = COMMANDS.filter((c) => c.said);
    expect(declared.length).toBeGreaterThan(10);
    for (const spec of declared) {
      for (const said of spec.said!) {
        const r = await read(`could you ${said.phrases[0]} please`);
        const readings = r.kind === 'read' ? [r.reading] : r.kind === 'readings' ? r.readings : [];
        const words = [...spec.words, ...(said.word ? [said.word] : [])].join(' ');
        expect(
          readings.map((x) => x.command.split(' ').slice(0, words.split(' ').length).join(' ')),
          said.phrases[0],
        ).toContain(words);
      }
    }
  });

  it('reads the issue’s sentence: the operation, the signal and workspace names, the range', async () => {
    const r = await commandOf('train a model on temperature and pressure at Pump station A using last week');
    expect(r.command).toBe('learn workspace="Pump station A" signals=temperature,pressure range="last week"');
    expect(r.unread).toEqual([]);
    expect(r.form).toEqual({
      id: 'learn',
      given: { workspace: W, signals: `${T}:temperature,${P}:pressure`, range: 'last week' },
    });
  });

  it('puts an ID under the argument the word before it names, else its positional', async () => {
    expect((await commandOf(`take model ${M} live because new baseline`)).command).toBe(
      `live start ${M} reason="new baseline"`,
    );
    expect((await commandOf(`how is flow 1090000000000000001 doing?`)).command).toBe(
      'flow 1090000000000000001',
    );
    expect((await commandOf(`train a model on signal ${T} at workspace ${W} using yesterday`)).command).toBe(
      `learn workspace=${W} signals=${T} range="yesterday"`,
    );
    expect((await commandOf(`stop the model for assessment ${A}`)).command).toBe(`live stop assessment=${A}`);
  });

  it('reads ranges in the person’s language and other forms', async () => {
    expect(
      (
        await commandOf(
          'score the Pump station A/anomaly/M[1] model on temperature at Pump station A in the last 3 days',
        )
      ).command,
    ).toBe(
      `score "Pump station A/anomaly/M[1]" workspace="Pump station A" signals=temperature range="in the last 3 days"`,
    );
    expect(
      (
        await commandOf(
          'retrain Pump station A/anomaly/M[1] with pressure at Sandbox for 2026-11-01T00:00Z/P1D',
        )
      ).command,
    ).toBe(
      `relearn "Pump station A/anomaly/M[1]" workspace=Sandbox signals=pressure range="2026-11-01T00:00Z/P1D"`,
    );
    expect(
      (await commandOf('learn a model on temperature at Pump station A seit gestern', 'de-DE')).command,
    ).toBe('learn workspace="Pump station A" signals=temperature range="seit gestern"');
  });

  it('asks, never guesses, when a phrase or a range reads two ways', async () => {
    const both = await read(`run the model ${M} over yesterday`);
    expect(both.kind).toBe('readings');
    if (both.kind !== 'readings') return;
    expect(both.readings.map((r) => r.spec.id).sort()).toEqual(['eval', 'score']);
    const dates = await read('train a model on temperature at Pump station A on 01/11/2026', 'en');
    expect(dates.kind).toBe('readings');
  });

  it('says what it did not use, with the closest names it knows', async () => {
    const r = await commandOf('train a model on temperature at Pump staton A last week');
    expect(r.command).toBe('learn signals=temperature range="last week"');
    expect(r.unread.join(' ')).toMatch(
      /No workspace named "Pump staton( A)?" is known\. Closest: "Pump station A"/,
    );
  });

  it('finds no command in a sentence that names none, and masks a token before reading', async () => {
    expect((await read('good morning everyone')).kind).toBe('unplaced');
    const r = await read('create a workspace called xoxb-1234567890-abcdefghijklmnop');
    expect(r.masked).toBe(true);
    expect(JSON.stringify(r)).not.toContain('xoxb-1234567890');
  });

  it('tells a sentence from a command', () => {
    expect(isSentence('train a model on temperature last week')).toBe(true);
    expect(isSentence('what waits for me')).toBe(true);
    expect(isSentence('learn a model on temperature last week')).toBe(true);
    expect(isSentence('learn workspace="Pump station A"')).toBe(false);
    expect(isSentence('learn')).toBe(false);
    expect(isSentence('flows')).toBe(false);
    expect(isSentence('lern')).toBe(false);
    expect(isSentence('flow 123')).toBe(false);
  });
});

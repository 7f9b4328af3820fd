import fc from 'fast-check';
import { COMMANDS } from '../../src/core/grammar/commands.js';
import { EXAMPLE_IDS } from '../../src/core/ids.js';
import { NAMES, RANGE, TEXT, WORD } from '../../src/core/kinds/index.js';
import { type AnyEntry, type Argument, usagePart } from '../../src/core/operations/registry/entry.js';
import { REGISTRY } from '../../src/core/operations/registry/index.js';
import type { LoggedRequest } from '../../standins/emulator/index.js';
import { SEED } from '../../standins/emulator/index.js';

/**
 * The seed of a fuzz run: FUZZ_SEED when given (to repeat a run), else a fresh one. Printed either way,
 * so that any failure can be replayed exactly.
 */
export function fuzzSeed(what: string): number {
  const given = process.env.FUZZ_SEED;
  const seed = given ? Number(given) : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  console.log(`${what}: fast-check seed ${seed} (repeat with FUZZ_SEED=${seed})`);
  return seed;
}

/** Cases per run: at least 10,000 in CI; FUZZ_CASES asks for more (or, locally, fewer). */
export function fuzzCases(fallback = 10_000): number {
  const n = Number(process.env.FUZZ_CASES ?? fallback);
  return process.env.CI === 'true' ? Math.max(n, 10_000) : n;
}

const SEED_IDS = [
  ...Object.values(SEED.workspaces),
  SEED.datastream,
  ...Object.values(SEED.signals),
  ...Object.values(SEED.assessments),
  ...Object.values(SEED.models),
  SEED.dataspec,
];

/** The words of every command, and the other words its usage line shows (`to`, `start|stop`, `clear`). */
const WORDS = [
  ...new Set(
    COMMANDS.flatMap((c) => [...c.words, ...c.usage.split(/[\s|[\]()]+/).filter((w) => /^[a-z]+$/.test(w))]),
  ),
];

/** Every command's option keys and their other spellings, as people type them or in another case. */
const KEY_NAMES = [
  ...new Set([...COMMANDS.flatMap((c) => c.keys), ...COMMANDS.flatMap((c) => Object.keys(c.aliases ?? {}))]),
];
const KEYS = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...KEY_NAMES) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...KEY_NAMES), fc.constantFrom('upper', 'capital', 'underscore'))
      .map(([k, how]) =>
        how === 'upper'
          ? k.toUpperCase()
          : how === 'capital'
            ? k.charAt(0).toUpperCase() + k.slice(1)
            : k.replace(/-/g, '_'),
      ),
  },
);

/** Bits people paste, Slack adds, or parsers trip on. */
const FRAGMENTS = [
  '"',
  "'",
  '“',
  '”',
  '«',
  '=',
  '==',
  ';',
  ';;',
  ',',
  ',,',
  ':',
  '::',
  '\\',
  '\\"',
  '\n',
  '\t',
  '\r\n',
  '\u0000',
  '\u0007',
  '\u200b',
  '\u202e',
  '\ufeff',
  '🚀',
  '👩‍👩‍👧',
  'é',
  'ǅ',
  '&',
  '&amp;',
  '&lt;',
  '&gt;',
  '<',
  '>',
  '<@U0ALICE>',
  '<@U0NOBODY|ghost>',
  '<#C0OPS|plant-ops>',
  '<!here>',
  '<!channel>',
  '<!subteam^S0APPROVERS|@approvers>',
  '<https://example.com|x>',
  '<mailto:a@b.c|a@b.c>',
  '@alice',
  '#plant-ops',
  'https://example.com/a?b=c&d=e',
  '`',
  '```',
  '*bold*',
  '~strike~',
  '>quote',
  '%s',
  `\${x}`,
  '__proto__',
  'constructor',
  'toString',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
];

const RANGES = [
  'yesterday',
  'today',
  'tomorrow',
  'last 3 days',
  'last week',
  'last 0 days',
  'last 100000 days',
  'last -1 days',
  'next week',
  'yesterday 9am to 5pm',
  'yesterday 09:00 to 17:00',
  '2026-11-01 to 2026-11-03',
  '2026-11-03 to 2026-11-01',
  '2026-02-30 to 2026-03-01',
  '1970-01-01 to 2262-04-12',
  '1677-09-21 to 1677-09-22',
  'Nov 20 to Nov 21',
  '25:00 to 26:00',
  'last week; yesterday',
  'yesterday; yesterday',
  'from to',
  'to',
  'now',
  '2026-11-01T00:00:00Z to 2026-11-01T00:00:00.0000000001Z',
  '3 days ago',
  'the day after',
];

const id = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...SEED_IDS) },
  { weight: 2, arbitrary: fc.stringMatching(/^\d{1,25}$/) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '0',
      '-1',
      '1e3',
      '1400000000000000001',
      '9'.repeat(40),
      '..',
      '.',
      'a/b',
      '%2F',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
);
const signalList = fc
  .array(
    fc.tuple(
      id,
      fc.option(fc.oneof(fc.constantFrom('temperature', 'pressure', ''), fc.string({ maxLength: 12 }))),
    ),
    {
      maxLength: 5,
    },
  )
  .map((xs) => xs.map(([i, label]) => (label === null ? i : `${i}:${label}`)).join(','));
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(...FRAGMENTS) },
);
const value = fc.oneof(
  { weight: 4, arbitrary: id },
  { weight: 2, arbitrary: signalList },
  { weight: 3, arbitrary: fc.constantFrom(...RANGES) },
  { weight: 2, arbitrary: text },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.constantFrom(...SEED.entities, 'pump-9', ''), { maxLength: 4 })
      .map((e) => e.join(',')),
  },
);
const key = fc.oneof({ weight: 6, arbitrary: KEYS }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
const token = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...WORDS) },
  {
    weight: 5,
    arbitrary: fc.tuple(key, fc.constantFrom('=', ' = ', '=='), value).map(([k, s, v]) => `${k}${s}${v}`),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(key, value, fc.constantFrom('"', '', '”'))
      .map(([k, v, close]) => `${k}="${v}${close}`),
  },
  { weight: 2, arbitrary: value },
  { weight: 1, arbitrary: fc.constantFrom(...FRAGMENTS) },
);
const separator = fc.constantFrom(' ', ' ', ' ', '  ', '\t', '\n', '\u00a0', '');

/** The documented examples' placeholder IDs, swapped for the emulator's demo data, so they can succeed. */
const TO_SEED: Record<string, string> = {
  [EXAMPLE_IDS.workspace]: SEED.workspaces.pumpStation,
  [EXAMPLE_IDS.model]: SEED.models.temperatureAnomaly,
  [EXAMPLE_IDS.assessment]: SEED.assessments.temperature,
  [EXAMPLE_IDS.datastream]: SEED.datastream,
  [EXAMPLE_IDS.signal]: SEED.signals.temperature,
  [EXAMPLE_IDS.signal2]: SEED.signals.pressure,
  [EXAMPLE_IDS.scoreSignal]: SEED.signals.anomalyScore,
  [EXAMPLE_IDS.dataspec]: SEED.dataspec,
  [EXAMPLE_IDS.flow]: SEED.flows.baselineLearn,
};

/** Every documented example (without `/tsai `), with the placeholder IDs and with the demo data's. */
export const EXAMPLES = COMMANDS.flatMap((c) => c.examples)
  .map((e) => e.replace(/^\/tsai\s*/, ''))
  .flatMap((e) => [e, e.replace(/\d{19}/g, (x) => TO_SEED[x] ?? x)]);

const name = fc.oneof(
  { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 30 }).filter((n) => !n.includes('"')) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constantFrom(...FRAGMENTS) },
);
/** The demo data's IDs by the kind of resource an argument names. */
const SEED_OF: Record<string, readonly string[]> = {
  workspace: Object.values(SEED.workspaces),
  model: Object.values(SEED.models),
  assessment: Object.values(SEED.assessments),
  datastream: [SEED.datastream],
  dataspec: [SEED.dataspec],
  signal: Object.values(SEED.signals),
  flow: Object.values(SEED.flows),
};
const seedSignals = fc
  .subarray(Object.values(SEED.signals), { minLength: 1 })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((i) =>
        fc
          .option(fc.constantFrom('temperature', 'pressure', 'x', ...SEED.anomalyOutputSchema), {
            nil: undefined,
          })
          .map((l) => (l ? `${i}:${l}` : i)),
      ),
    ),
  )
  .map((xs) => xs.join(','));
const goodRange = fc.constantFrom(...RANGES.slice(0, 17));

/**
 * A value of an argument, as its declaration says: where it names a kind of resource, the demo data's IDs
 * of that kind (now and then one the service does not know, or a name), else the values its kind
 * declares; free text quoted, odd but plausible.
 */
function argumentValue(arg: Argument): fc.Arbitrary<string> {
  const quoted = (v: fc.Arbitrary<string>) => v.map((x) => `"${x}"`);
  // A flow's ID names no kind of resource (flows are not in the catalog): its usage line says `<flow_id>`.
  const resource = arg.lookup?.names?.name ?? /<(\w+)_id>/.exec(usagePart(arg, true))?.[1];
  const known = resource ? SEED_OF[resource] : undefined;
  if (known && arg.lookup?.list)
    return resource === 'signal'
      ? seedSignals
      : fc.subarray([...known], { minLength: 1 }).map((ids) => ids.join(','));
  if (known)
    return fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...known) },
      { weight: 1, arbitrary: fc.stringMatching(/^1[4-9]\d{17}$/) },
    );
  if (arg.kind === RANGE) return quoted(goodRange);
  if (arg.kind === NAMES)
    return fc.subarray([...SEED.entities, 'pump-9'], { minLength: 1 }).map((e) => e.join(','));
  if (arg.kind === TEXT || arg.kind === WORD) return quoted(name);
  const { good, bad } = arg.kind.samples;
  return fc
    .oneof(
      { weight: 6, arbitrary: fc.constantFrom(...good) },
      { weight: 1, arbitrary: fc.constantFrom(...(bad.length ? bad : good)) },
    )
    .map((v) => (/[\s"]/.test(v) ? `"${v.replace(/"/g, "'")}"` : v));
}

/** One argument as its usage line shows it (`key=<shape>`, `[to] <workspace_id>`), with a value in it. */
function written(arg: Argument): fc.Arbitrary<string> {
  const shown = usagePart(arg, true);
  return argumentValue(arg).map((v) => shown.replace(/<[^>]*>/, () => v).replace(/\[(\w+)\]/g, '$1'));
}

/** An argument when it is needed, else now and then. */
const maybe = (arg: Argument, needed: boolean) =>
  needed ? written(arg) : fc.option(written(arg), { nil: '' });

/**
 * Commands of an entry, from its declared arguments alone: its words (and its lead: `start|stop`), one of
 * its ways of writing it, one side of each either/or choice, each argument it needs and now and then one
 * it does not.
 */
function commandsOf(entry: AnyEntry): fc.Arbitrary<string> {
  const { words, lead, forms } = entry.command;
  const ways = forms?.map((keys) =>
    keys.flatMap((k, i) => {
      const arg = entry.args.find((a) => a.key === k);
      return arg ? [maybe(arg, i === 0 || arg.required)] : [];
    }),
  ) ?? [sided(entry.args)];
  const leads = lead ? lead.split('|') : [''];
  return fc
    .tuple(fc.constantFrom(...leads), fc.oneof(...ways.map((parts) => fc.tuple(...parts))))
    .map(([l, parts]) => [...words, l, ...parts].filter(Boolean).join(' '));
}

/** The arguments' parts, each either/or choice made: one side's arguments, the others left out. */
function sided(args: readonly Argument[]): fc.Arbitrary<string>[] {
  const choices = [...new Set(args.flatMap((a) => (a.side ? [a.side.choice] : [])))];
  return [
    fc
      .tuple(
        ...choices.map((c) =>
          fc.constantFrom(
            ...new Set(args.filter((a) => a.side?.choice === c).map((a) => String(a.side!.option))),
          ),
        ),
      )
      .chain((options) =>
        fc.tuple(
          ...args.flatMap((a) => {
            if (!a.side) return [maybe(a, a.required)];
            if (options[choices.indexOf(a.side.choice)] !== a.side.option) return [];
            return [maybe(a, !a.side.detail)];
          }),
        ),
      )
      .map((parts) => parts.filter(Boolean).join(' ')),
  ];
}

/** The bot's own commands (not the registry's), from their examples: a count at the end varied. */
const BOT_EXAMPLES = COMMANDS.filter((c) => !REGISTRY.some((e) => e.command.id === c.id)).flatMap((c) =>
  c.examples.map((e) => e.replace(/^\/tsai\s*/, '').replace(/\d{19}/g, (x) => TO_SEED[x] ?? x)),
);

/** Commands of the right shape over the demo data, with odd but plausible values: most reach the service. */
const wellFormed = fc.oneof(
  ...REGISTRY.map(commandsOf),
  fc
    .tuple(fc.constantFrom(...BOT_EXAMPLES), fc.integer({ min: -5, max: 500 }))
    .map(([e, n]) => e.replace(/ \d{1,3}$/, ` ${n}`)),
  fc.constantFrom(...COMMANDS.map((c) => `help ${c.id}`), 'help', 'help nothing'),
);

const edit = fc.record({
  at: fc.nat(),
  remove: fc.nat({ max: 6 }),
  insert: fc.oneof(fc.constantFrom('', ...FRAGMENTS), fc.string({ maxLength: 6 })),
});

/** A command's text as a person might type it: grammar-shaped, an example mangled, or plain noise. */
export const commandText: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: wellFormed },
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 2 }),
        fc.array(fc.tuple(separator, token), { maxLength: 8 }),
      )
      .map(([words, rest]) => [words.join(' '), ...rest.map(([s, t]) => `${s}${t}`)].join(' ')),
  },
  { weight: 2, arbitrary: fc.constantFrom(...EXAMPLES) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...EXAMPLES), fc.array(edit, { minLength: 1, maxLength: 3 }))
      .map(([ex, edits]) => {
        let s = ex;
        for (const e of edits) {
          const at = e.at % (s.length + 1);
          s = s.slice(0, at) + e.insert + s.slice(at + e.remove);
        }
        return s;
      }),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 200 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 100 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 1000, maxLength: 4000 }) },
);

/**
 * Why a request the emulator logged breaks the wire schema the service API is specified by, or undefined:
 * it is checked against the body schema of every registry entry whose declared call it is (several may
 * share a method and path: a move and a rename of a model, learn and relearn), and is well formed when
 * one of them takes it. The emulator checks with the same schemas; its other 400s are its own consistency
 * checks (an entity not in the datastream, output names that do not match the model), which a valid body
 * can meet.
 */
export async function wireProblem(
  r: LoggedRequest,
  entries: readonly AnyEntry[] = REGISTRY,
): Promise<string | undefined> {
  const flowType = (r.body as { flowType?: unknown } | null)?.flowType;
  const calls = entries
    .map((e) => e.wire)
    .filter((wire) => {
      const path = wire.path.replace(/\{\w+\}/g, '[^/]+');
      const at = new RegExp(`^/api/${wire.version}/accounts/[^/]+${path}(\\?.*)?$`);
      return (
        wire.method === r.method &&
        at.test(r.path) &&
        (!wire.flowType || wire.flowType.all.includes(String(flowType)))
      );
    });
  const problems: string[] = [];
  for (const wire of calls) {
    const { body } = await wire.schemas();
    if (!body) {
      if (r.body === undefined || r.body === null) return undefined;
      problems.push(`${r.method} with a body`);
    } else if (body.safeParse(r.body).success) return undefined;
    else problems.push(`${r.method} ${r.path}: ${JSON.stringify(r.body)} breaks the schema`);
  }
  if (problems.length) return [...new Set(problems)].join('; ');
  // Reads no entry declares (the token check's) change nothing; they only must not carry a body.
  if (r.method === 'GET') return r.body === undefined || r.body === null ? undefined : 'GET with a body';
  return `unexpected ${r.method} ${r.path}${flowType ? ` (flow type ${String(flowType)})` : ''}`;
}

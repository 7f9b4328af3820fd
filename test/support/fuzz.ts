import fc from 'fast-check';
import { COMMANDS } from '../../src/core/grammar/commands.js';
import { EXAMPLE_IDS } from '../../src/core/ids.js';
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

const WORDS = [
  'help',
  'workspace',
  'create',
  'show',
  'model',
  'move',
  'to',
  'common',
  'eval',
  'live',
  'start',
  'stop',
  'learn',
  'relearn',
  'score',
  'use',
  'clear',
  'approvals',
  'audit',
  'flow',
  'flows',
];

const KEYS = [
  'workspace',
  'signals',
  'signal',
  'range',
  'ranges',
  'time',
  'dataspec',
  'name',
  'description',
  'desc',
  'model',
  'model-name',
  'modelname',
  'model_name',
  'assessment',
  'datastream',
  'entities',
  'entity',
  'prefix',
  'outputs',
  'output-signals',
  'reason',
  'WORKSPACE',
  'Range',
];

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
const key = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
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
  [EXAMPLE_IDS.dataspec]: SEED.dataspec,
  [EXAMPLE_IDS.flow]: '1400000000000000001',
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
const opt = (k: string, v: fc.Arbitrary<string>) =>
  fc.option(
    v.map((x) => ` ${k}="${x}"`),
    { nil: '' },
  );
const ws = fc.constantFrom(...Object.values(SEED.workspaces));
const anomalyModel = fc.constantFrom(SEED.models.temperatureAnomaly, SEED.models.pressureCommon);
const seedSignals = fc
  .subarray(Object.values(SEED.signals), { minLength: 1 })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((i) =>
        fc
          .option(fc.constantFrom('temperature', 'pressure', 'x'), { nil: undefined })
          .map((l) => (l ? `${i}:${l}` : i)),
      ),
    ),
  )
  .map((xs) => xs.join(','));
const goodRange = fc.constantFrom(...RANGES.slice(0, 17));
const data = fc.oneof(
  fc.tuple(seedSignals, goodRange).map(([sig, r]) => `signals=${sig} range="${r}"`),
  fc.constant(`dataspec=${SEED.dataspec}`),
);

/** Commands of the right shape over the demo data, with odd but plausible values: most reach the service. */
const wellFormed = fc.oneof(
  fc
    .tuple(ws, data, opt('model-name', name), opt('name', name))
    .map(([w, d, m, n]) => `learn workspace=${w} ${d}${m}${n}`),
  fc
    .tuple(anomalyModel, ws, data, opt('name', name))
    .map(([m, w, d, n]) => `relearn ${m} workspace=${w} ${d}${n}`),
  fc
    .tuple(
      anomalyModel,
      ws,
      data,
      fc.oneof(
        name.map((p) => `prefix="${p}"`),
        fc.constant(`outputs=${SEED.signals.anomalyScore}:anomaly_score`),
      ),
    )
    .map(([m, w, d, o]) => `score ${m} workspace=${w} ${d} ${o}`),
  fc
    .tuple(fc.subarray([...SEED.entities, 'pump-9'], { minLength: 1 }), goodRange, opt('name', name))
    .map(
      ([e, r, n]) =>
        `eval ${SEED.assessments.temperature} model=${SEED.models.temperatureCommon} datastream=${SEED.datastream} entities=${e.join(',')} range="${r}"${n}`,
    ),
  fc.tuple(name, opt('description', name)).map(([n, d]) => `workspace create "${n}"${d}`),
  fc.tuple(fc.constantFrom(...Object.values(SEED.models)), ws).map(([m, w]) => `model move ${m} to ${w}`),
  fc.constantFrom(...Object.values(SEED.assessments)).map((a) => `model common ${a}`),
  fc
    .tuple(
      fc.constantFrom('start', 'stop'),
      fc.constantFrom(...Object.values(SEED.models)),
      opt('reason', name),
    )
    .map(([a, m, r]) => `live ${a} ${m}${r}`),
  fc.stringMatching(/^14\d{17}$/).map((f) => `flow ${f}`),
  fc
    .option(fc.integer({ min: -5, max: 500 }), { nil: undefined })
    .map((n) => `flows${n === undefined ? '' : ` ${n}`}`),
  fc
    .option(fc.integer({ min: -5, max: 500 }), { nil: undefined })
    .map((n) => `audit${n === undefined ? '' : ` ${n}`}`),
  fc.constantFrom(
    'use',
    'use clear',
    `use workspace=${SEED.workspaces.pumpStation} datastream=${SEED.datastream}`,
  ),
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
 * it is checked against the body schema of the registry entry whose declared call it is. The emulator
 * checks with the same schemas; its other 400s are its own consistency checks (an entity not
 * in the datastream, output names that do not match the model), which a valid body can meet.
 */
export async function wireProblem(r: LoggedRequest): Promise<string | undefined> {
  const flowType = (r.body as { flowType?: unknown } | null)?.flowType;
  for (const { wire } of REGISTRY) {
    const path = wire.path.replace(/\{\w+\}/g, '[^/]+');
    const at = new RegExp(`^/api/${wire.version}/accounts/[^/]+${path}(\\?.*)?$`);
    if (wire.method !== r.method || !at.test(r.path)) continue;
    if (wire.flowType && !wire.flowType.all.includes(String(flowType))) continue;
    const { body } = await wire.schemas();
    if (!body) return r.body === undefined || r.body === null ? undefined : `${r.method} with a body`;
    const result = body.safeParse(r.body);
    return result.success ? undefined : `${r.method} ${r.path}: ${JSON.stringify(r.body)} breaks the schema`;
  }
  // Reads no entry declares (the token check's) change nothing; they only must not carry a body.
  if (r.method === 'GET') return r.body === undefined || r.body === null ? undefined : 'GET with a body';
  return `unexpected ${r.method} ${r.path}${flowType ? ` (flow type ${String(flowType)})` : ''}`;
}

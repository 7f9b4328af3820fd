// The edges of a stretch of time: "the start of the week", "since shift start", "the end of last month",
// "the first day of this month", "the last day of last month", "the 15th of last month". The stretch is
// any the grammar reads as one (a day, a week, a month, a year, a shift); "the week", "the month", "the
// year", "the day" and "the shift" are the ones going on.
import { type Endpoint, type EndpointHit, refuse } from './endpoint.js';
import { isWord, type R, type Tok, textOf, tokenize } from './tokens.js';

type Edge = Extract<Endpoint, { k: 'edge' }>;
type Inner = (t: Tok[], i: number) => R<EndpointHit>;

/** Stretches an edge may be of: not an instant, not a span of hours. */
const STRETCH = new Set(['span', 'day', 'shift', 'isoWeek']);
const CURRENT: Record<string, string> = {
  day: 'today',
  week: 'this week',
  month: 'this month',
  year: 'this year',
  shift: 'this shift',
};
const ORDINAL = new Set(['st', 'nd', 'rd', 'th']);

/** The whole readings of a phrase of our own ("this week"). */
function readingsOf(phrase: string, inner: Inner): EndpointHit[] {
  const t = tokenize(phrase);
  return inner(t, 0)
    .filter(([, e]) => e === t.length)
    .map(([hit]) => hit);
}

/** What "of X" is: the stretch X names, at `k` ("the week" and "week" are the one going on). */
function stretches(t: Tok[], k: number, inner: Inner): R<EndpointHit> {
  const out: R<EndpointHit> = [];
  const j = isWord(t, k, 'the') ? k + 1 : k;
  const word = t[j];
  const current = word && !word.num ? CURRENT[word.s] : undefined;
  if (current) for (const hit of readingsOf(current, inner)) out.push([hit, j + 1]);
  out.push(...inner(t, k));
  return out;
}

function edgeOf(which: Edge['which'], hit: EndpointHit, n?: number): EndpointHit | undefined {
  if (!('ep' in hit)) return 'refusal' in hit ? hit : undefined;
  if (!STRETCH.has(hit.ep.k)) return undefined;
  if (which !== 'start' && which !== 'end' && hit.ep.k === 'shift') return undefined;
  return { ep: { k: 'edge', which, ...(n === undefined ? {} : { n }), of: hit.ep } };
}

/** Every reading of `t[i..]` as an edge of a stretch of time. */
export function edgeAt(t: Tok[], i: number, inner: Inner): R<EndpointHit> {
  const out: R<EndpointHit> = [];
  const add = (which: Edge['which'], k: number, n?: number) => {
    for (const [hit, e] of stretches(t, k, inner)) {
      const made = edgeOf(which, hit, n);
      if (made) out.push([made, e]);
    }
  };
  // "shift start", "shift end"
  if (isWord(t, i, 'shift') && isWord(t, i + 1, 'start', 'end')) {
    for (const hit of readingsOf('this shift', inner)) {
      const made = edgeOf(t[i + 1]!.s as 'start' | 'end', hit);
      if (made) out.push([made, i + 2]);
    }
  }
  const j = isWord(t, i, 'the') ? i + 1 : i;
  if (isWord(t, j, 'start', 'beginning', 'end') && isWord(t, j + 1, 'of')) {
    add(t[j]!.s === 'end' ? 'end' : 'start', j + 2);
  }
  if (isWord(t, j, 'first', 'last') && isWord(t, j + 1, 'day') && isWord(t, j + 2, 'of')) {
    add(t[j]!.s === 'first' ? 'firstDay' : 'lastDay', j + 3);
  }
  // "the 15th of last month", "the 1st day of this month"
  const x = t[j];
  if (j > i && x?.num && x.s.length <= 2 && ORDINAL.has(t[j + 1]?.s ?? '') && t[j + 1]!.glued) {
    const k = isWord(t, j + 2, 'day') ? j + 3 : j + 2;
    if (isWord(t, k, 'of')) {
      const n = Number(x.s);
      if (n < 1) out.push([refuse(`“${textOf(t, i, k)}” is not a day.`, ['the 1st of last month']), k + 1]);
      else add('nthDay', k + 1, n);
    }
  }
  return out;
}

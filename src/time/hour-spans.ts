// "yesterday 8-4", "today from 2pm-4", "between 6 and 8 this evening", "last night 11-5": a span of hours
// tied to a day or a part of one, written as people write shifts. Which half of the day the hours are in
// is clock-spans.ts's to say; this finds the words.
import type { Clock, Endpoint, GrammarCtx } from './endpoint.js';
import { clock, parseEndpointTokens } from './grammar.js';
import { isWord, type Tok, textOf, tokenize } from './tokens.js';

export type DayEndpoint = Extract<Endpoint, { k: 'day' }>;

export interface HourSpan {
  day: DayEndpoint;
  /** The words that name the day (or the part of it), as typed. */
  dayText: string;
  a: Clock;
  b: Clock;
}

const SEPARATORS = ['-', '–', '—', 'to', 'until', 'till', 'through', 'thru'];

/** "8-4", "from 2pm-4", "between 6 and 8", "6pm to 8pm" at `i`: both ends, and where the span ends. */
function spansAt(t: Tok[], i: number): [Clock, Clock, number][] {
  const between = isWord(t, i, 'between');
  const j = between || isWord(t, i, 'from') ? i + 1 : i;
  const out: [Clock, Clock, number][] = [];
  for (const [a, k] of clock(t, j, true)) {
    if (a.refusal) continue;
    let m = k;
    if (between) {
      if (!isWord(t, m, 'and')) continue;
      m++;
    } else if (t[m]?.s === '.' && t[m + 1]?.s === '.') m += 2;
    else if (t[m] && !t[m]!.num && SEPARATORS.includes(t[m]!.s)) m++;
    else continue;
    for (const [b, e] of clock(t, m, true)) if (!b.refusal) out.push([a.clock, b.clock, e]);
  }
  return out;
}

function dayOf(t: Tok[], g: GrammarCtx): DayEndpoint | undefined {
  if (t.length === 0) return undefined;
  const hit = parseEndpointTokens(t, g);
  return hit && 'ep' in hit && hit.ep.k === 'day' && !hit.ep.shift ? hit.ep : undefined;
}

/** The day (or part of it) and the two ends of a span of hours, when `text` is one. */
export function hourSpan(text: string, g: GrammarCtx): HourSpan | undefined {
  const t = tokenize(text);
  for (let i = 1; i < t.length; i++) {
    for (const [a, b, end] of spansAt(t, i)) {
      if (end !== t.length) continue;
      const day = dayOf(t.slice(0, i), g);
      if (day) return { day, dayText: textOf(t, 0, i), a, b };
    }
  }
  for (const [a, b, end] of spansAt(t, 0)) {
    const day = end < t.length ? dayOf(t.slice(end), g) : undefined;
    if (day) return { day, dayText: textOf(t, end, t.length), a, b };
  }
  return undefined;
}

import { COMMANDS, type CommandSpec } from '../grammar/commands.js';
import { LINKING, type Word, wordsOf } from './words.js';

/** A command a sentence asks for by one of the phrases it declares, and how well. */
export interface Said {
  spec: CommandSpec;
  /** The word it takes after its own (`start` of `live start|stop`), as declared with the phrase. */
  word?: string;
  /** The phrase's words found: each exactly as declared counts 1, by its stem alone a little less. */
  score: number;
  /** The indexes of the sentence's words the phrase took. */
  took: number[];
  phrase: string;
}

/** How many other words may stand between two of a phrase's own (`take model 1070… live`). */
const MAX_GAP = 5;
/** A word found by its stem alone (`flows` for `flow`): a phrase that has it exactly reads better. */
const BY_STEM = 0.75;

/**
 * Where a phrase's words stand in the sentence, in order, with few others between: its linking words may
 * be left out, the others must all be there. The best placing, by score; undefined when it is not there.
 */
function place(phrase: string, words: readonly Word[]): { score: number; took: number[] } | undefined {
  const own = wordsOf(phrase);
  let best: { score: number; took: number[] } | undefined;
  const go = (i: number, at: number, score: number, took: number[]) => {
    if (i === own.length) {
      if (score > 0 && (!best || score > best.score)) best = { score, took };
      return;
    }
    const w = own[i]!;
    const optional = LINKING.has(w.text);
    const last = took.length === 0 ? words.length - 1 : Math.min(words.length - 1, at + MAX_GAP);
    for (let j = at; j <= last; j++) {
      const exact = words[j]!.text === w.text;
      if (exact || words[j]!.stem === w.stem)
        go(i + 1, j + 1, score + (optional ? 0 : exact ? 1 : BY_STEM), [...took, j]);
    }
    if (optional) go(i + 1, at, score, took);
  };
  go(0, 0, 0, []);
  return best;
}

/**
 * The commands a sentence asks for by the phrases they declare (`CommandSpec.said`), best first: for each
 * command (and word), its best phrase. Only what the command table declares is read: a command added to the
 * registry with its phrases is read with no change here.
 */
export function commandsSaid(words: readonly Word[]): Said[] {
  const found: Said[] = [];
  for (const spec of COMMANDS) {
    for (const said of spec.said ?? []) {
      let best: Said | undefined;
      for (const phrase of said.phrases) {
        const at = place(phrase, words);
        if (at && (!best || at.score > best.score))
          best = { spec, ...(said.word ? { word: said.word } : {}), ...at, phrase };
      }
      if (best) found.push(best);
    }
  }
  return found.sort((a, b) => b.score - a.score);
}

/** The commands the best phrases found ask for: one, or several equally well (a sentence to ask about). */
export function bestSaid(words: readonly Word[]): Said[] {
  const all = commandsSaid(words);
  const top = all[0]?.score;
  return top === undefined ? [] : all.filter((s) => s.score === top);
}

/**
 * The words of a sentence, as the reader of plain requests compares them with what commands declare
 * (`CommandSpec.said`): each with where it stands, lower case, and its stem, so that `training`, `trained`
 * and `trains` are `train`'s and `models` is `model`'s.
 */
export interface Word {
  /** Lower case, as written. */
  text: string;
  stem: string;
  /** Where it stands in the sentence (UTF-16 offsets). */
  from: number;
  to: number;
}

/** A word: letters, digits and what names and IDs hold inside them (`pump-1`, `M[0]`, `anomaly_score`). */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}[\]_.\-/]*[\p{L}\p{N}\]]|[\p{L}\p{N}]/gu;

/** `training` -> `train`, `models` -> `model`, `stopped` -> `stop`, `score` -> `scor`. */
export function stemOf(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, '');
  if (w.length <= 3) return w;
  for (const end of ['ing', 'ed', 'es', 's', 'e']) {
    if (w.endsWith(end) && w.length - end.length >= 3) {
      w = w.slice(0, -end.length);
      break;
    }
  }
  // A doubled last letter left by an ending (`stopp`, `runn`) is one.
  return /([b-df-hj-np-tv-z])\1$/.test(w) ? w.slice(0, -1) : w;
}

/** The words of a text, in order. */
export function wordsOf(text: string): Word[] {
  return [...text.matchAll(WORD)].map((m) => ({
    text: m[0].toLowerCase(),
    stem: stemOf(m[0]),
    from: m.index,
    to: m.index + m[0].length,
  }));
}

/**
 * Words that join others and may be left out of what a command declares or put in it: `train a model`
 * is `train model` and `train the model` too.
 */
export const LINKING = new Set(['a', 'an', 'the', 'of', 'to', 'on', 'in', 'for', 'with', 'is', 'are', 'at']);

/**
 * Words a plain request holds that ask nothing of their own: courtesy, pronouns, the glue between the
 * parts. What is left of a sentence once its command, names, IDs and ranges are read, these aside, is
 * what the bot could not place, and says so.
 */
export const FILLER = new Set([
  ...LINKING,
  ...['please', 'pls', 'can', 'could', 'would', 'will', 'you', 'me', 'i', 'we', 'us', 'our', 'my', 'your'],
  ...['it', 'its', 'this', 'that', 'these', 'those', 'there', 'here', 'some', 'all', 'and', 'or', 'but'],
  ...['using', 'use', 'from', 'over', 'by', 'into', 'about', 'as', 'be', 'do', 'does', 'did', 'what'],
  ...['hey', 'hi', 'hello', 'thanks', 'thank', 'now', 'again', 'just', 'also', 'data', 'id', 'ids'],
  ...['new', 'want', 'like', 'need', 'let', 's', 'called', 'named', 'so', 'then', 'up', 'out'],
]);

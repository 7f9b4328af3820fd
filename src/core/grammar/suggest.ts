/**
 * "Did you mean": the known words closest to a misspelt one. Only ever offered alongside a refusal; the
 * bot never acts on a suggestion itself.
 */

/** At most this many candidates are offered, so the refusal stays one readable line. */
export const MAX_SUGGESTIONS = 3;

const MAX_CHARS = 100;

/**
 * Edit distance counting an insertion, deletion, substitution or swap of two neighbours as one edit
 * (optimal string alignment), over at most the first 100 characters of each.
 */
export function editDistance(a: string, b: string): number {
  const x = [...a].slice(0, MAX_CHARS);
  const y = [...b].slice(0, MAX_CHARS);
  const rows: number[][] = [Array.from({ length: y.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      let d = Math.min(
        rows[i - 1]![j]! + 1,
        row[j - 1]! + 1,
        rows[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row[j] = d;
    }
    rows.push(row);
  }
  return rows[x.length]![y.length]!;
}

/** How far a word may be from a candidate and still be taken for a slip: one edit per three characters. */
export function closeEnough(word: string): number {
  return Math.min(4, Math.max(1, Math.floor([...word].length / 3)));
}

const fold = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The candidates closest to `word` (case and runs of whitespace aside) within `closeEnough`, nearest
 * first, at most three. A candidate the word is the start of counts too (`work` for `workspace`).
 */
export function suggest(word: string, candidates: Iterable<string>, max = MAX_SUGGESTIONS): string[] {
  const w = fold(word);
  if (w === '') return [];
  const limit = closeEnough(w);
  const scored = new Map<string, number>();
  for (const c of candidates) {
    const f = fold(c);
    if (f === w || scored.has(c)) continue;
    const d = editDistance(w, f);
    if (d <= limit) scored.set(c, d);
    else if ([...w].length >= 3 && f.startsWith(w)) scored.set(c, limit);
  }
  return [...scored]
    .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
    .slice(0, max)
    .map(([c]) => c);
}

/** ` Did you mean \`learn\`?` (or `a` or `b`), or '' when nothing is close. Candidates are shown as code. */
export function didYouMean(suggestions: readonly string[], show = (s: string) => `\`${s}\``): string {
  if (suggestions.length === 0) return '';
  const shown = suggestions.map(show);
  const list = shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
  return ` Did you mean ${list}?`;
}

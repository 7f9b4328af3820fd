/** Small parsers for the list fields of the modals; each returns values or one message for the field. */
import { EXAMPLE_IDS, isServiceId } from '../ids.js';

export type ListOutcome<T> = { ok: true; items: T[] } | { ok: false; error: string };

const ID_EXAMPLE = EXAMPLE_IDS.workspace;

/** `noun` names the ID, e.g. "workspace" → "The workspace ID is required…". */
export function idError(noun: string, text: string): string | undefined {
  if (text.trim() === '') return `The ${noun} ID is required, e.g. ${ID_EXAMPLE}.`;
  if (!isServiceId(text.trim())) {
    return `"${clipForMessage(text.trim())}" is not a valid ${noun} ID: IDs are numbers of 18–19 digits, e.g. ${ID_EXAMPLE}.`;
  }
  return undefined;
}

/** Splits on new lines and commas, dropping blanks. */
function entries(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * `id[:label]` lines (or comma-separated), for dataspec signals and output mappings.
 * A missing label defaults to the ID (the service needs a name for every entry).
 */
export function parseIdLabelList(
  text: string,
  what: { noun: string; labelNoun: string },
): ListOutcome<{ signal: string; name: string }> {
  const items: { signal: string; name: string }[] = [];
  const bad: string[] = [];
  const seen = new Set<string>();
  const dupes: string[] = [];
  for (const entry of entries(text)) {
    const colon = entry.indexOf(':');
    const id = (colon < 0 ? entry : entry.slice(0, colon)).trim();
    const label = colon < 0 ? '' : entry.slice(colon + 1).trim();
    if (!isServiceId(id)) {
      bad.push(entry);
      continue;
    }
    if (seen.has(id)) dupes.push(id);
    seen.add(id);
    items.push({ signal: id, name: label || id });
  }
  const example = `${ID_EXAMPLE}:Bearing temperature`;
  if (bad.length > 0) {
    const list = bad
      .slice(0, 3)
      .map((b) => `"${clipForMessage(b)}"`)
      .join(', ');
    return {
      ok: false,
      error: `Not a ${what.noun} ID${bad.length > 1 ? 's' : ''}: ${list}${bad.length > 3 ? ` and ${bad.length - 3} more` : ''}. One per line: the ID (18–19 digits), optionally :${what.labelNoun}, e.g. ${example}`,
    };
  }
  if (dupes.length > 0)
    return { ok: false, error: `${capitalise(what.noun)} listed twice: ${[...new Set(dupes)].join(', ')}.` };
  if (items.length === 0) {
    return { ok: false, error: `Give at least one ${what.noun}, one per line, e.g. ${example}` };
  }
  return { ok: true, items };
}

/** Entity names for EVAL segments: comma- or line-separated, duplicates removed. */
export function parseEntities(text: string): ListOutcome<string> {
  const items = [...new Set(entries(text))];
  if (items.length === 0) return { ok: false, error: 'Give at least one entity, e.g. pump-7, pump-8' };
  return { ok: true, items };
}

export function clipForMessage(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

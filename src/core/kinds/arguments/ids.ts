import { idsOf } from '../../catalog/kind.js';
import { listGiven, nounOf } from '../../grammar/args.js';
import type { SignalRef } from '../../grammar/types.js';
import type { Argument, ArgumentKind } from '../kind.js';
import { capital, clipForMessage, itemsOf } from './messages.js';

/**
 * A form's list of IDs, one a line (or comma-separated), each with its label where the lookup takes
 * labels (the ID when none is given): the list, or one message for the field.
 */
export function readIdList(
  arg: Argument<SignalRef[]>,
  text: string,
): { ok: true; items: SignalRef[] } | { ok: false; error: string } {
  const ids = idsOf(arg.lookup);
  const labels = arg.lookup?.labels;
  const noun = nounOf(arg);
  const items: SignalRef[] = [];
  const bad: string[] = [];
  const seen = new Set<string>();
  const dupes: string[] = [];
  for (const entry of itemsOf(text)) {
    const colon = labels ? entry.indexOf(':') : -1;
    const id = (colon < 0 ? entry : entry.slice(0, colon)).trim();
    const label = colon < 0 ? '' : entry.slice(colon + 1).trim();
    if (!ids.is(id)) {
      bad.push(entry);
      continue;
    }
    if (seen.has(id)) dupes.push(id);
    seen.add(id);
    items.push({ signal: id, name: label || id });
  }
  const example = labels ? `${ids.example}:Bearing temperature` : ids.example;
  const shape = labels
    ? `the ID (${ids.described}), optionally :${labels.noun}`
    : `the ID (${ids.described})`;
  if (bad.length > 0) {
    const list = bad
      .slice(0, 3)
      .map((b) => `"${clipForMessage(b)}"`)
      .join(', ');
    return {
      ok: false,
      error: `Not a ${noun} ID${bad.length > 1 ? 's' : ''}: ${list}${bad.length > 3 ? ` and ${bad.length - 3} more` : ''}. One per line: ${shape}, e.g. ${example}`,
    };
  }
  if (dupes.length > 0)
    return { ok: false, error: `${capital(noun)} listed twice: ${[...new Set(dupes)].join(', ')}.` };
  if (items.length === 0)
    return { ok: false, error: `Give at least one ${noun}, one per line, e.g. ${example}` };
  return { ok: true, items };
}

/**
 * Several resources, comma-separated, each by its ID (with a label where the lookup takes labels) or,
 * where its lookup names a kind of resource, by its name. Its form field picks several from the catalog.
 */
export const IDS: ArgumentKind<SignalRef[]> = {
  name: 'ids',
  shape: (arg) => (arg.lookup?.labels ? '<id[:label],…>' : '<id,…>'),
  parse: listGiven,
  element: (arg) =>
    arg.lookup?.names
      ? { input: 'select', resource: arg.lookup.names, multi: true }
      : { input: 'text', multiline: true },
  fromForm(arg, r) {
    if (!r.text && !r.required) return undefined;
    const list = readIdList(arg, r.text);
    if (!list.ok) {
      r.errors[r.block] = list.error;
      return undefined;
    }
    return list.items.map((s) => (s.name === s.signal ? s.signal : `${s.signal}:${s.name}`)).join(',');
  },
  // One a line in a form, as its select shows them.
  toForm: (text) => itemsOf(text).join('\n'),
  toCommand: (text) => itemsOf(text).join(','),
  samples: {
    good: ['1050000000000000001', '1050000000000000001:temperature,1050000000000000002'],
    bad: ['abc:temp', '1050000000000000001,,1050000000000000002', '1050000000000000001:'],
  },
  step: {
    title: (arg) => capital(arg.lookup?.names?.many ?? `${nounOf(arg)}s`),
    note: '',
  },
};

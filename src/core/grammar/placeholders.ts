import type { NamedList, NameRef } from './types.js';

/**
 * A name the grammar met where an ID goes stands in the parse as a placeholder until the catalog has
 * said what it stands for; then the placeholders are filled in, so a command is parsed once. Private-use
 * characters mark them; the parser takes them out of a command's text first (`withoutMarks`).
 */
const ID_MARK = '\u{E000}';
const LABEL_MARK = '\u{E001}';
const ENTRY_MARK = '\u{E002}';
const PLACEHOLDER = /\u{E000}(\d+)\u{E000}|\u{E001}(\d+)\u{E001}|\u{E002}(\d+)\u{E002}/gu;

/** Where the ID of the `index`th name goes. */
export const idPlaceholder = (index: number) => `${ID_MARK}${index}${ID_MARK}`;
/** Where a signal's label goes: its catalog name, else its ID. */
export const labelPlaceholder = (index: number) => `${LABEL_MARK}${index}${LABEL_MARK}`;
/** A list entry as a form reopens with it: `id:name`, or the bare ID when the label is the ID. */
export const entryPlaceholder = (index: number) => `${ENTRY_MARK}${index}${ENTRY_MARK}`;

const MARKS = /[\u{E000}-\u{E002}]/gu;

function hasMarks(text: string): boolean {
  return text.search(MARKS) >= 0;
}

export function withoutMarks(text: string): string {
  return text.replace(MARKS, '');
}

/** What each name stands for, in the order the grammar met them. */
export interface FilledName {
  id: string;
  /** A list item's label: the resource's name where its lookup labels by name, else the ID. */
  label: string;
}

/** Every placeholder in `value` (strings, arrays and plain objects, deeply) replaced by what it stands for. */
export function fillPlaceholders<T>(value: T, filled: readonly FilledName[]): T {
  return fill(value, filled) as T;
}

function fill(value: unknown, filled: readonly FilledName[]): unknown {
  if (typeof value === 'string') {
    if (!hasMarks(value)) return value;
    return value.replace(PLACEHOLDER, (_m, id?: string, label?: string, entry?: string) => {
      const name = filled[Number(id ?? label ?? entry)]!;
      if (id !== undefined) return name.id;
      if (label !== undefined) return name.label;
      return name.label === name.id ? name.id : `${name.id}:${name.label}`;
    });
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, filled));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, filled)]));
  return value;
}

/** The first list that names one item twice once its names are filled in, and that item. */
export function repeatedSignal(
  lists: readonly NamedList[],
  filled: readonly FilledName[],
): { key: string; noun: string; signal: string } | undefined {
  for (const list of lists) {
    const seen = new Set<string>();
    for (const signal of fillPlaceholders(list.signals, filled)) {
      if (seen.has(signal)) return { key: list.key, noun: list.noun, signal };
      seen.add(signal);
    }
  }
  return undefined;
}

export type { NameRef };

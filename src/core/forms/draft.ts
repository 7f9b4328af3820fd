import { CHOICES } from './choice-words.js';
import { type FormId, isFormId, type ModalFields, shownFields } from './fields.js';
import { parseJsonObject } from './json-object.js';

/** Everything needed to reopen a modal as the user left it. */
export interface Draft {
  kind: FormId;
  /** Only this user may reopen it. */
  userId: string;
  /** The channel the modal was opened in (absent: it came from a shortcut; fields.channel holds the choice). */
  channel?: string;
  /** The thread within that channel it was asked from: where its outcome is told. */
  threadTs?: string;
  fields: ModalFields;
}

/** Compact JSON of a draft: empty fields are left out. */
export function encodeDraft(d: Draft): string {
  const f: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(d.fields))
    if (typeof value === 'string' && value) f[name] = value;
  if (d.fields.ranges?.some((r) => r.trim() !== '')) f.ranges = d.fields.ranges;
  return JSON.stringify({ k: d.kind, u: d.userId, c: d.channel, t: d.threadTs, f });
}

/**
 * Reads a draft back, keeping only well-typed values of the fields its form has (as its entry names
 * them now); undefined when it is not a draft.
 */
export function decodeDraft(text: string): Draft | undefined {
  const o = parseJsonObject(text);
  if (!o) return undefined;
  if (!isFormId(o.k) || typeof o.u !== 'string') return undefined;
  const src = (typeof o.f === 'object' && o.f !== null ? o.f : {}) as Record<string, unknown>;
  const fields: ModalFields = {};
  const held = (name: string) => {
    const value = src[name];
    return typeof value === 'string' ? value : undefined;
  };
  const kept = [{ name: 'channel' }, { name: 'repeat' }, ...shownFields(o.k)];
  for (const field of kept) {
    const value = held(field.name);
    // A radio holds one of its choice's options, or nothing.
    const radio = 'radio' in field ? field.radio : undefined;
    if (value !== undefined && (!radio || Object.hasOwn(CHOICES[radio].options, value)))
      fields[field.name] = value;
  }
  if (Array.isArray(src.ranges)) fields.ranges = src.ranges.filter((r): r is string => typeof r === 'string');
  return {
    kind: o.k,
    userId: o.u,
    channel: typeof o.c === 'string' ? o.c : undefined,
    ...(typeof o.t === 'string' ? { threadTs: o.t } : {}),
    fields,
  };
}

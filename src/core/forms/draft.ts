import { type FormId, isFormId, type ModalFields } from './fields.js';
import { parseJsonObject } from './json-object.js';

/** Everything needed to reopen a modal as the user left it. */
export interface Draft {
  kind: FormId;
  /** Only this user may reopen it. */
  userId: string;
  /** The channel the modal was opened in (absent: it came from a shortcut; fields.channel holds the choice). */
  channel?: string;
  fields: ModalFields;
}

const TEXT_KEYS = [
  'channel',
  'name',
  'description',
  'workspace',
  'modelName',
  'model',
  'signals',
  'dataspecName',
  'dataspecId',
  'prefix',
  'outputs',
  'assessment',
  'datastream',
  'entities',
  'repeat',
] as const satisfies readonly (keyof ModalFields)[];

/** Compact JSON of a draft: empty fields are left out. */
export function encodeDraft(d: Draft): string {
  const f: Record<string, unknown> = {};
  for (const k of TEXT_KEYS) if (d.fields[k]) f[k] = d.fields[k];
  if (d.fields.dataMode) f.dataMode = d.fields.dataMode;
  if (d.fields.outputMode) f.outputMode = d.fields.outputMode;
  if (d.fields.ranges?.some((r) => r.trim() !== '')) f.ranges = d.fields.ranges;
  return JSON.stringify({ k: d.kind, u: d.userId, c: d.channel, f });
}

/** Reads a draft back, keeping only well-typed fields; undefined when it is not a draft. */
export function decodeDraft(text: string): Draft | undefined {
  const o = parseJsonObject(text);
  if (!o) return undefined;
  if (!isFormId(o.k) || typeof o.u !== 'string') return undefined;
  const src = (typeof o.f === 'object' && o.f !== null ? o.f : {}) as Record<string, unknown>;
  const fields: ModalFields = {};
  for (const k of TEXT_KEYS) if (typeof src[k] === 'string') fields[k] = src[k] as string;
  if (src.dataMode === 'new' || src.dataMode === 'dataspec') fields.dataMode = src.dataMode;
  if (src.outputMode === 'prefix' || src.outputMode === 'map') fields.outputMode = src.outputMode;
  if (Array.isArray(src.ranges)) fields.ranges = src.ranges.filter((r): r is string => typeof r === 'string');
  return {
    kind: o.k as FormId,
    userId: o.u,
    channel: typeof o.c === 'string' ? o.c : undefined,
    fields,
  };
}

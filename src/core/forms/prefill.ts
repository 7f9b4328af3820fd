import { MAX_RANGES, type ModalFields, type ModalKind, type TextFieldName } from './fields.js';

/**
 * Turns what a `/tsai learn|relearn|score|eval` command gave (canonical keys, as the command parser
 * reports them for a command with arguments missing) into modal fields.
 */
export function fieldsFromCommand(kind: ModalKind, given: Record<string, string>): ModalFields {
  const f: ModalFields = {};
  const set = (field: Exclude<TextFieldName, 'dataMode' | 'outputMode'>, value: string | undefined) => {
    if (value !== undefined && value.trim() !== '') f[field] = value.trim();
  };
  set('name', given.name);
  set('description', given.description);
  set('workspace', given.workspace);
  set('model', given.model);
  set('assessment', given.assessment);
  set('datastream', given.datastream);
  if (kind === 'learn') set('modelName', given['model-name']);
  if (given.signals) f.signals = oneper(given.signals);
  if (given.entities)
    f.entities = given.entities
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .join(', ');
  if (given.range) {
    const ranges = given.range
      .split(/[;\n]/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (ranges.length > 0) f.ranges = ranges.length > MAX_RANGES ? [given.range.trim()] : ranges;
  }
  if (given.dataspec) {
    f.dataspecId = given.dataspec.trim();
    f.dataMode = 'dataspec';
  } else if (kind === 'learn' || kind === 'score') {
    f.dataMode = 'new';
  }
  if (kind === 'score') {
    if (given.prefix) {
      f.prefix = given.prefix.trim();
      f.outputMode = 'prefix';
    } else if (given.outputs) {
      f.outputs = oneper(given.outputs);
      f.outputMode = 'map';
    }
  }
  return f;
}

/** Per-channel defaults (from `/tsai use`), as the store keeps them. */
export interface ChannelDefaultValues {
  workspace?: string;
  datastream?: string;
  model?: string;
  assessment?: string;
  entities?: string[] | string;
}

const DEFAULTABLE: Record<ModalKind, (keyof ChannelDefaultValues)[]> = {
  learn: ['workspace'],
  relearn: ['workspace', 'model'],
  score: ['workspace', 'model'],
  eval: ['assessment', 'datastream', 'model', 'entities'],
};

/**
 * Fills fields the command left empty from the channel's defaults; returns which fields came from there
 * (the modal says so).
 */
export function applyChannelDefaults(
  kind: ModalKind,
  fields: ModalFields,
  defaults: ChannelDefaultValues | undefined,
): { fields: ModalFields; fromDefaults: TextFieldName[] } {
  const out: ModalFields = { ...fields };
  const fromDefaults: TextFieldName[] = [];
  if (!defaults) return { fields: out, fromDefaults };
  for (const key of DEFAULTABLE[kind]) {
    if (out[key]?.trim()) continue;
    const raw = defaults[key];
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (value?.trim()) {
      out[key] = value.trim();
      fromDefaults.push(key);
    }
  }
  return { fields: out, fromDefaults };
}

function oneper(list: string): string {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .join('\n');
}

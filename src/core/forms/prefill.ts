import { MAX_RANGES, type ModalFields, type ModalKind, type TextFieldName } from './fields.js';

/**
 * Turns what a `/tsai learn|relearn|score|eval` command gave (canonical keys, as the command parser
 * reports them for a command with arguments missing, channel defaults already applied) into modal fields.
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
  set('dataspecName', given['dataspec-name']);
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

function oneper(list: string): string {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .join('\n');
}

const DEFAULTABLE: readonly TextFieldName[] = ['workspace', 'model', 'assessment', 'datastream', 'entities'];

/** The command's `fromDefaults` keys as field names (the channel-default keys are named like the fields). */
export function defaultedFields(keys: readonly string[]): TextFieldName[] {
  return DEFAULTABLE.filter((f) => keys.includes(f));
}

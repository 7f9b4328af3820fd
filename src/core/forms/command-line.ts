import type { ModalFields, ModalKind } from './fields.js';

/**
 * The `/tsai` command equivalent to a modal's fields, shown under results ("Run by @alice: …") as the
 * command path quotes the typed command; it also teaches the one-line form.
 */
export function commandLineOf(kind: ModalKind, f: ModalFields): string {
  const parts: string[] = ['/tsai', kind];
  const add = (key: string, value: string | undefined) => {
    const v = value?.trim();
    if (v) parts.push(`${key}=${quote(v)}`);
  };
  const list = (value: string | undefined) =>
    value
      ?.split(/[\n,]/)
      .map((s) => s.trim())
      .filter(Boolean)
      .join(',');
  const ranges = f.ranges
    ?.map((r) => r.trim())
    .filter(Boolean)
    .join('; ');
  if (kind === 'eval') {
    if (f.assessment?.trim()) parts.push(f.assessment.trim());
    add('model', f.model);
    add('datastream', f.datastream);
    add('entities', list(f.entities));
    add('range', ranges);
    add('name', f.name);
    return parts.join(' ');
  }
  if (kind !== 'learn' && f.model?.trim()) parts.push(f.model.trim());
  add('workspace', f.workspace);
  const reuse =
    kind !== 'relearn' && (f.dataMode === 'dataspec' || (!f.dataMode && f.dataspecId && !f.signals));
  if (reuse) add('dataspec', f.dataspecId);
  else {
    add('signals', list(f.signals));
    add('range', ranges);
    add('dataspec-name', f.dataspecName);
  }
  if (kind === 'learn') add('model-name', f.modelName);
  if (kind === 'score') {
    const prefix = f.outputMode === 'prefix' || (!f.outputMode && f.prefix && !f.outputs);
    if (prefix) add('prefix', f.prefix);
    else add('outputs', list(f.outputs));
  }
  add('name', f.name);
  add('description', f.description?.replace(/\s*\n\s*/g, ' '));
  return parts.join(' ');
}

function quote(v: string): string {
  return /[\s"'=]/.test(v) ? `"${v.replace(/"/g, "'")}"` : v;
}

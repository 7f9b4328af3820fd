import { parseTimeRanges, type TimeRange } from '../../time/index.js';
import { FIELD, type FormInput, type ModalKind, type RangeInput } from './fields.js';

export type { FormInput };

import { clipForMessage, idError, parseEntities, parseIdLabelList } from './parse-lists.js';
import type { ModalRequest, ResolvedData, ResolvedOutput } from './requests.js';

export interface FormContext {
  now: Date;
  /** The user's IANA zone; wall-clock times in ranges are read in it. */
  timeZone: string;
  /** The user's Slack locale ("en-GB"): the day/month order of numeric dates. Absent: unknown. */
  locale?: string;
  /** Flow name used when the name field is empty, e.g. "learn by @alice 2026-11-22 09:14Z". */
  defaultName: string;
  /** True when the modal asked for the channel (opened from a global shortcut). */
  needsChannel: boolean;
}

export type FormOutcome =
  | { ok: true; request: ModalRequest; channel?: string }
  | { ok: false; errors: Record<string, string> };

/** Same limits as the command path for one-line texts. */
const NAME_MAX = 200;
const DESCRIPTION_MAX = 2000;
const PREFIX_MAX = 100;

/**
 * Checks a whole modal submission and returns either the resolved request (the same shape the command
 * path produces) or a message for EVERY bad field at once, keyed by the input's block_id.
 * Nothing here talks to Slack or the service.
 */
export function validateModal(kind: ModalKind, form: FormInput, ctx: FormContext): FormOutcome {
  const errors: Record<string, string> = {};
  const text = (v: string | undefined) => (v ?? '').trim();

  let channel: string | undefined;
  if (ctx.needsChannel) {
    channel = text(form.channel) || undefined;
    if (!channel) errors[FIELD.channel] = 'Choose the channel where the result is posted.';
  }

  const name = text(form.name) || ctx.defaultName;
  if (name.length > NAME_MAX)
    errors[FIELD.name] = `The name is ${name.length} characters; keep it to ${NAME_MAX}.`;
  const description = text(form.description) || undefined;
  if (description && description.length > DESCRIPTION_MAX) {
    errors[FIELD.description] =
      `The description is ${description.length} characters; keep it to ${DESCRIPTION_MAX}.`;
  }

  const requireId = (field: 'workspace' | 'model' | 'assessment' | 'datastream', noun: string): string => {
    const value = text(form[field]);
    const problem = idError(noun, value);
    if (problem) errors[FIELD[field]] = problem;
    return value;
  };
  const done = (request: ModalRequest): FormOutcome =>
    Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, request, channel };

  if (kind === 'eval') {
    const assessmentId = requireId('assessment', 'assessment');
    const datastreamId = requireId('datastream', 'datastream');
    const modelId = requireId('model', 'live model');
    const entities = parseEntities(text(form.entities));
    if (!entities.ok) errors[FIELD.entities] = entities.error;
    const ranges = readRanges(form.ranges, ctx, true, errors);
    if (!entities.ok || ranges.length === 0) return { ok: false, errors };
    if (ranges.length > 1) {
      errors[form.ranges[0]!.blockId] = 'EVAL takes one time range; run one backfill per range.';
      return { ok: false, errors };
    }
    return done({
      kind,
      name,
      assessmentId,
      modelId,
      datastreamId,
      entities: entities.items,
      range: ranges[0]!,
    });
  }

  const modelId = kind === 'learn' ? '' : requireId('model', kind === 'relearn' ? 'model' : 'anomaly model');
  const workspaceId = requireId('workspace', 'workspace');
  const data = readData(kind, form, ctx, name, errors);
  const output = kind === 'score' ? readOutput(form, errors) : undefined;
  if (!data) return { ok: false, errors };
  const described = description ? { description } : {};
  switch (kind) {
    case 'learn': {
      const modelName = text(form.modelName) || undefined;
      if (modelName && modelName.length > NAME_MAX) {
        errors[FIELD.modelName] = `The model name is ${modelName.length} characters; keep it to ${NAME_MAX}.`;
      }
      return done({ kind, name, ...described, workspaceId, ...(modelName ? { modelName } : {}), data });
    }
    case 'relearn':
      return done({ kind, name, ...described, modelId, workspaceId, data });
    case 'score':
      if (!output) return { ok: false, errors };
      return done({ kind, name, ...described, modelId, workspaceId, data, output });
  }
}

/** Data of an anomaly flow: new signals + ranges (inline dataspec) or a dataspec ID. */
function readData(
  kind: Exclude<ModalKind, 'eval'>,
  form: FormInput,
  ctx: FormContext,
  flowName: string,
  errors: Record<string, string>,
): ResolvedData | undefined {
  const signalsText = (form.signals ?? '').trim();
  const dataspecId = (form.dataspecId ?? '').trim();
  const dataspecName = (form.dataspecName ?? '').trim();
  const anyRange = form.ranges.some((r) => r.text.trim() !== '');
  // relearn takes new data only; the others follow the radio button, else what was filled in.
  const mode =
    kind === 'relearn'
      ? 'new'
      : (form.dataMode ?? (dataspecId && !signalsText && !anyRange ? 'dataspec' : 'new'));

  if (mode === 'dataspec') {
    const problem = idError('dataspec', dataspecId);
    if (problem) errors[FIELD.dataspecId] = problem;
    const clearIt = 'Data is set to "Reuse an existing dataspec ID": clear this field, or choose "New".';
    if (signalsText) errors[FIELD.signals] = clearIt;
    if (dataspecName) errors[FIELD.dataspecName] = clearIt;
    for (const r of form.ranges) if (r.text.trim()) errors[r.blockId] = clearIt;
    return problem ? undefined : { kind: 'dataspec', dataspecId };
  }

  if (dataspecId) {
    errors[FIELD.dataspecId] =
      'Data is set to "New: signals and time ranges": clear this field, or choose "Reuse".';
  }
  const signals = parseIdLabelList(signalsText, { noun: 'signal', labelNoun: 'label' });
  if (!signals.ok) errors[FIELD.signals] = signals.error;
  const ranges = readRanges(form.ranges, ctx, true, errors);
  if (dataspecName.length > NAME_MAX)
    errors[FIELD.dataspecName] = `Keep the dataspec name to ${NAME_MAX} characters.`;
  if (!signals.ok || ranges.length === 0) return undefined;
  return { kind: 'inline', signals: signals.items, ranges, dataspecName: dataspecName || flowName };
}

function readOutput(form: FormInput, errors: Record<string, string>): ResolvedOutput | undefined {
  const prefix = (form.prefix ?? '').trim();
  const mapping = (form.outputs ?? '').trim();
  let mode = form.outputMode;
  if (!mode) {
    if (prefix && mapping) {
      const both = 'Fill in either the output prefix or the mapping to existing signals, not both.';
      errors[FIELD.prefix] = both;
      errors[FIELD.outputs] = both;
      errors[FIELD.outputMode] = 'Choose where the outputs go.';
      return undefined;
    }
    if (!prefix && !mapping) {
      errors[FIELD.outputMode] =
        'Choose where the outputs go: new signals with a prefix (e.g. pump-7/anomaly), or existing signals.';
      return undefined;
    }
    mode = prefix ? 'prefix' : 'map';
  }
  if (mode === 'prefix') {
    if (mapping) {
      errors[FIELD.outputs] =
        'Outputs go to new signals with a prefix: clear this mapping, or choose "Map to existing signals".';
    }
    if (!prefix) {
      errors[FIELD.prefix] = 'Give a prefix for the new output signals, e.g. pump-7/anomaly';
      return undefined;
    }
    if (/\s/.test(prefix) || prefix.length > PREFIX_MAX) {
      errors[FIELD.prefix] =
        `"${clipForMessage(prefix)}" cannot be a prefix: one word of at most ${PREFIX_MAX} characters, e.g. pump-7/anomaly`;
      return undefined;
    }
    return { kind: 'prefix', prefix };
  }
  if (prefix) {
    errors[FIELD.prefix] =
      'Outputs are mapped to existing signals: clear this prefix, or choose "New signals with a prefix".';
  }
  const parsed = parseIdLabelList(mapping, { noun: 'output signal', labelNoun: 'output name' });
  if (!parsed.ok) {
    errors[FIELD.outputs] = parsed.error;
    return undefined;
  }
  return { kind: 'signals', signals: parsed.items };
}

/**
 * Parses every non-empty range input in the user's zone and locale, as the command path does: every
 * form reads data, so every range must end by now. Errors go under the input concerned;
 * ranges that overlap across inputs are flagged on the later input, naming the earlier one.
 * Returns [] when any input is bad.
 */
function readRanges(
  inputs: RangeInput[],
  ctx: FormContext,
  required: boolean,
  errors: Record<string, string>,
): TimeRange[] {
  const found: { range: TimeRange; blockId: string; position: number }[] = [];
  let failed = false;
  inputs.forEach((input, position) => {
    const text = input.text.trim();
    if (!text) return;
    const outcome = parseTimeRanges(text, {
      now: ctx.now,
      timeZone: ctx.timeZone,
      requirePast: true,
      ...(ctx.locale ? { locale: ctx.locale } : {}),
    });
    if (!outcome.ok) {
      failed = true;
      errors[input.blockId] = withExamples(outcome.error, outcome.examples);
      return;
    }
    for (const range of outcome.ranges) found.push({ range, blockId: input.blockId, position });
  });
  if (found.length === 0 && !failed) {
    const first = inputs[0]?.blockId;
    if (required && first) {
      errors[first] = withExamples('Give at least one time range.', [
        'yesterday 9am to 5pm',
        'Nov 1 to Nov 3',
      ]);
    }
    return [];
  }
  found.sort((a, b) => (a.range.startNs < b.range.startNs ? -1 : a.range.startNs > b.range.startNs ? 1 : 0));
  for (let i = 1; i < found.length; i++) {
    const prev = found[i - 1]!;
    const cur = found[i]!;
    if (cur.range.startNs < prev.range.endNs && cur.blockId !== prev.blockId) {
      const later = cur.position > prev.position ? cur : prev;
      const earlier = later === cur ? prev : cur;
      failed = true;
      errors[later.blockId] ??=
        `This range overlaps time range ${earlier.position + 1}; ranges must not overlap.`;
    }
  }
  return failed ? [] : found.map((f) => f.range);
}

function withExamples(error: string, examples: string[]): string {
  const ex = examples
    .slice(0, 3)
    .map((e) => `"${e}"`)
    .join(', ');
  return ex ? `${error} Examples: ${ex}.` : error;
}

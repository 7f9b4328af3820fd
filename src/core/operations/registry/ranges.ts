import { parseTimeRange, parseTimeRanges, type RangeRefusal, type TimeRange } from '../../../time/index.js';
import type { DataArg } from '../../grammar/types.js';
import { defaultName } from '../../names.js';
import type { OpFailure } from '../../outcome.js';
import type { RequestContext, ResolvedData } from '../requests.js';

/** How the entries resolve what needs the user's zone and the clock: time ranges, and default names. */

function rangeFailure(refusal: RangeRefusal, key: string): OpFailure {
  const example = refusal.examples[0];
  const readings = refusal.readings?.map((r) => `${key}="${r}"`);
  return {
    ok: false,
    message: `\`${key}=\` could not be read: ${refusal.error}`,
    ...(example ? { example: `${key}="${example}"` } : {}),
    ...(readings?.length ? { readings } : {}),
  };
}

/** How every command that reads data parses its ranges: in the user's zone and locale, ending by now. */
function rangeContext(ctx: RequestContext) {
  return {
    now: ctx.now,
    timeZone: ctx.timeZone,
    requirePast: true,
    ...(ctx.locale ? { locale: ctx.locale } : {}),
    ...(ctx.shifts ? { shifts: ctx.shifts } : {}),
  };
}

/** One time range (EVAL backfills one per flow). */
export function resolveRange(rangeText: string, ctx: RequestContext): TimeRange | OpFailure {
  const parsed = parseTimeRange(rangeText, rangeContext(ctx));
  return parsed.ok ? parsed.range : rangeFailure(parsed, 'range');
}

/** The data made exact: its ranges read, the new dataspec named as given, else after the flow. */
export function resolveData(data: DataArg, ctx: RequestContext, name: string): ResolvedData | OpFailure {
  if (data.kind === 'dataspec') return data;
  const parsed = parseTimeRanges(data.rangeText, rangeContext(ctx));
  if (!parsed.ok) return rangeFailure(parsed, 'range');
  return {
    kind: 'inline',
    signals: data.signals,
    ranges: parsed.ranges,
    dataspecName: data.dataspecName ?? name,
  };
}

/** The name given, or one a person recognises: `learn by @alice 2026-11-22 09:14Z`. */
export function nameOr(given: string | undefined, operation: string, ctx: RequestContext): string {
  return given ?? defaultName(operation, ctx.userName, ctx.now);
}

/**
 * How a command that reads data is resolved: its name (or a default one from `operation`), then its data's
 * ranges named after it.
 */
export function resolveNamedData(operation: string) {
  return <C extends { name?: string | undefined; data: DataArg }>(command: C, ctx: RequestContext) => {
    const name = nameOr(command.name, operation, ctx);
    const data = resolveData(command.data, ctx, name);
    if (isFailure(data)) return data;
    return { ok: true as const, operation: { ...command, name, data } };
  };
}

/**
 * How a command that reads one time range (`rangeText`) is resolved: its range read in the person's zone,
 * its name given (or a default one from `operation`).
 */
export function resolveNamedRange(operation: string) {
  return <C extends { name?: string | undefined; rangeText: string }>(command: C, ctx: RequestContext) => {
    const range = resolveRange(command.rangeText, ctx);
    if (isFailure(range)) return range;
    const { rangeText: _, ...rest } = command;
    return { ok: true as const, operation: { ...rest, name: nameOr(command.name, operation, ctx), range } };
  };
}

export function isFailure(x: object): x is OpFailure {
  return 'ok' in x && x.ok === false;
}

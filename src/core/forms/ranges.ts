import type { Shift } from '../../time/index.js';
import { parseTimeRanges, type TimeRange } from '../../time/index.js';
import type { RangeInput } from './field-names.js';

/** How a form's ranges are read: in the user's zone and locale, at this moment. */
export interface RangeContext {
  now: Date;
  timeZone: string;
  locale?: string;
  shifts?: readonly Shift[];
}

/**
 * Parses every non-empty range input in the user's zone and locale, as the command path does: every
 * form reads data, so every range must end by now. Errors go under the input concerned;
 * ranges that overlap across inputs are flagged on the later input, naming the earlier one.
 * Returns [] when any input is bad.
 */
export function readRanges(
  inputs: RangeInput[],
  ctx: RangeContext,
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
      ...(ctx.shifts ? { shifts: ctx.shifts } : {}),
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

/** The range inputs as one `range=` text: each range on its own, separated by `;` as a command gives them. */
export function rangeText(inputs: RangeInput[]): string {
  return inputs
    .flatMap((input) => input.text.split(/[;\n]/))
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join('; ');
}

function withExamples(error: string, examples: string[]): string {
  const ex = examples
    .slice(0, 3)
    .map((e) => `"${e}"`)
    .join(', ');
  return ex ? `${error} Examples: ${ex}.` : error;
}

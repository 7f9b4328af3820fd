import type { Shift } from '../../time/index.js';
import { describeRanges, parseTimeRanges } from '../../time/index.js';
import type { RangePreview } from './fields.js';

export interface PreviewContext {
  now: Date;
  timeZone: string;
  /** Ranges must end by now: true for every modal, since each one reads data (as validateModal checks). */
  requirePast: boolean;
  /** The user's Slack locale ("en-GB"): the day/month order of numeric dates. Absent: unknown. */
  locale?: string;
  /** The shifts of the channel the form runs in ("last shift"). Absent: none declared. */
  shifts?: readonly Shift[];
}

/** The interpretation of one range input in the user's zone and UTC; undefined for an empty input. */
export function previewRange(text: string, ctx: PreviewContext): RangePreview | undefined {
  if (text.trim() === '') return undefined;
  const outcome = parseTimeRanges(text, ctx);
  if (!outcome.ok) {
    const examples = outcome.examples
      .slice(0, 3)
      .map((e) => `"${e}"`)
      .join(', ');
    return { ok: false, text: examples ? `${outcome.error} Try e.g. ${examples}.` : outcome.error };
  }
  return {
    ok: true,
    text: describeRanges(outcome.ranges, ctx.timeZone, { now: ctx.now, separator: '; ' }),
  };
}

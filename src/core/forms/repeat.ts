import { parseTimeRanges } from '../../time/index.js';
import { readWhen } from '../schedules/when.js';

/** What the "Repeat" field and the "Run this every …" modal are prefilled or hinted with. */
export const REPEAT_EXAMPLE = 'every weekday at 06:00';

/** The relative range a schedule of a fixed past range is pointed to instead. */
export const RELATIVE_RANGE_EXAMPLE = 'last 8 hours';

/**
 * Reads a form's or modal's "when" in the person's zone, as `/tsai schedule` will: the error is one
 * sentence with a "when" that works as typed, to show under the field.
 */
export function checkRepeat(
  text: string,
  o: { zone: string; now: number },
): { ok: true; whenText: string } | { ok: false; error: string } {
  const whenText = text.trim();
  const when = readWhen(whenText, o);
  if (when.ok) return { ok: true, whenText };
  return { ok: false, error: `${when.message} For example: ${REPEAT_EXAMPLE}` };
}

/**
 * Whether a range text names fixed instants ("Nov 1 to Nov 3"), which every run would read the same:
 * it is read at two instants a day apart, and a relative one ("last 8 hours") moves with them.
 */
export function isFixedRange(text: string, o: { zone: string; now: number; locale?: string }): boolean {
  if (!text.trim()) return false;
  const locale = o.locale ? { locale: o.locale } : {};
  const at = (ms: number) => parseTimeRanges(text, { now: new Date(ms), timeZone: o.zone, ...locale });
  const a = at(o.now);
  const b = at(o.now + 86_400_000);
  if (!a.ok || !b.ok) return false;
  return (
    a.ranges.length === b.ranges.length &&
    a.ranges.every((r, i) => r.startNs === b.ranges[i]!.startNs && r.endNs === b.ranges[i]!.endNs)
  );
}

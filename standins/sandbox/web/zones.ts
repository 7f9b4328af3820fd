/** Time zone arithmetic for the viewer's Slack zone (never the browser's own zone). */

function parts(epochMs: number, timeZone: string): Record<string, number> {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(epochMs))) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

/** Offset of `timeZone` from UTC at an instant, in ms. */
export function offsetMs(epochMs: number, timeZone: string): number {
  const p = parts(epochMs, timeZone);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

/** `YYYY-MM-DDTHH:mm` wall time in `timeZone` to epoch seconds. */
export function wallToEpochSeconds(local: string, timeZone: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local);
  if (!m) return undefined;
  const guess = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!);
  let epoch = guess - offsetMs(guess, timeZone);
  epoch = guess - offsetMs(epoch, timeZone);
  return Math.floor(epoch / 1000);
}

/** Epoch seconds to `YYYY-MM-DDTHH:mm` wall time in `timeZone`. */
export function epochSecondsToWall(seconds: number, timeZone: string): string {
  const p = parts(seconds * 1000, timeZone);
  const two = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
}

export function clock(epochMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' }).format(
    new Date(epochMs),
  );
}

export function dayLabel(epochMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  }).format(new Date(epochMs));
}

/** "GMT", "GMT+5:30", "EST": the zone's short name now. */
export function zoneAbbreviation(timeZone: string, epochMs = Date.now()): string {
  const p = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })
    .formatToParts(new Date(epochMs))
    .find((x) => x.type === 'timeZoneName');
  return p?.value ?? timeZone;
}

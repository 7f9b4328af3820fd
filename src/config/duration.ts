const UNIT_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1 } as const;

/** "4h", "90m", "30s", "1d", "1h30m", "250ms" or a bare number of milliseconds. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d+$/.test(t)) return Number(t);
  const re = /(\d+)\s*(ms|d|h|m|s)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    total += Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
    consumed = re.lastIndex;
    while (t[consumed] === ' ') consumed++;
    re.lastIndex = consumed;
  }
  return consumed === t.length && consumed > 0 ? total : undefined;
}

/** Whether the text is a bare number, which only the variables that were documented in ms accept. */
export function isBareNumber(text: string): boolean {
  return /^\d+$/.test(text.trim());
}

/** The shortest unit spelling of a duration: 14_400_000 -> "4h", 5_400_000 -> "1h30m". */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = ms;
  let out = '';
  for (const [unit, size] of Object.entries(UNIT_MS)) {
    const n = Math.floor(rest / size);
    if (n > 0) out += `${n}${unit}`;
    rest -= n * size;
  }
  return out;
}

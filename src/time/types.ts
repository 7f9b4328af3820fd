export interface TimeRange {
  startNs: bigint;
  endNs: bigint;
}

export interface ParseContext {
  now: Date | bigint;
  timeZone: string;
  requirePast?: boolean;
}

export type RangeOutcome = { ok: true; range: TimeRange } | { ok: false; error: string; examples: string[] };
export type RangesOutcome =
  | { ok: true; ranges: TimeRange[] }
  | { ok: false; error: string; examples: string[] };

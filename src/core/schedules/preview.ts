import { dstNoteFor, dstNoteText, type Rule, runsAfter } from './rule.js';

/** One planned run as the preview shows it: the instant, and what a daylight-saving change does that day. */
export interface PlannedRun {
  at: number;
  dst?: string;
}

/** The next `n` runs after `afterMs`, each marked when the clocks change on its day. */
export function previewRuns(rule: Rule, afterMs: number, n = 3): PlannedRun[] {
  return runsAfter(rule, afterMs, n).map((at) => {
    const note = dstNoteFor(rule, at);
    return note ? { at, dst: dstNoteText(note) } : { at };
  });
}

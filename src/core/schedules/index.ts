export { type PlannedRun, previewRuns } from './preview.js';
export { type DstNote, dstNoteFor, nextRunAfter, type Rule, runsAfter, runsBetween } from './rule.js';
export { readWhen, WHEN_EXAMPLES, type WhenOutcome } from './when.js';

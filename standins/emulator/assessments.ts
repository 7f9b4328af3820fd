import type { Rec } from './seed.js';
import type { Store } from './store.js';

/**
 * The assessment with this ID, as the service knows it: a record of its own (the demo data's named
 * assessments), or a signal, since for anomaly models the assessment is the signal (Part 1 of the
 * reference, "Model"). A model that `learn` creates belongs to its first signal, so everything that
 * names an assessment (the common-model lookup, EVAL) knows that one too.
 */
export function knownAssessment(store: Store, id: string): Rec | undefined {
  return store.get('assessments', id) ?? store.get('signals', id);
}

/** The common model M[0] of an assessment, when it has one. */
export function commonModelOf(store: Store, assessmentId: string): Rec | undefined {
  return store.all('models').find((m) => m.assessment === assessmentId && m.isCommonModel === true);
}

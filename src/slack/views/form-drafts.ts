import { type Draft, decodeDraft, encodeDraft } from '../../core/forms/draft.js';
import { storeDraft, storedDraft } from '../../core/forms/stored-drafts.js';
import { maskValues } from '../../core/gate/mask.js';
import type { Store } from '../../core/records.js';
import { LIMITS } from '../../wire/block-kit.js';

const INLINE = 'v1:';
const STORED = 'draft:';

/**
 * Keeps what a user typed for the "Reopen with my inputs" button, as the button's value.
 * A draft that fits in a button's value travels inside it: nothing to store, nothing lost on restart,
 * any replica can reopen it. A larger one goes to the durable store and the value names it.
 * A token-like value is masked in the draft as everywhere past the first reading: reopened, its field
 * shows the mask, and the person pastes what belongs there, never a token kept in Slack or the store.
 */
export async function saveDraft(store: Store, at: Date, draft: Draft): Promise<string> {
  const encoded = encodeDraft(maskValues(draft).value);
  const inline = INLINE + encoded;
  if (inline.length <= LIMITS.buttonValue) return inline;
  return STORED + (await storeDraft(store, encoded, at));
}

/** The draft a button's value carries or names; undefined for anything else. */
export async function loadDraft(store: Store, value: string): Promise<Draft | undefined> {
  if (value.startsWith(INLINE)) return decodeDraft(value.slice(INLINE.length));
  if (!value.startsWith(STORED)) return undefined;
  const stored = await storedDraft(store, value.slice(STORED.length));
  return stored === undefined ? undefined : decodeDraft(stored);
}

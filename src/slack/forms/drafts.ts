import { randomUUID } from 'node:crypto';
import { type Draft, decodeDraft, encodeDraft } from '../../core/forms/draft.js';
import type { Store } from '../../store/index.js';
import { LIMITS } from '../../wire/block-kit.js';

const INLINE = 'v1:';
const STORED = 'draft:';
const KEY_PREFIX = 'modal-draft:';

/**
 * Keeps what a user typed for the "Reopen with my inputs" button, as the button's value.
 * A draft that fits in a button's value travels inside it: nothing to store, nothing lost on restart,
 * any replica can reopen it. A larger one goes to the durable store and the value names it.
 */
export async function saveDraft(store: Store, at: Date, draft: Draft): Promise<string> {
  const inline = INLINE + encodeDraft(draft);
  if (inline.length <= LIMITS.buttonValue) return inline;
  const id = randomUUID();
  await store.setState(KEY_PREFIX + id, { draft: encodeDraft(draft) }, at.getTime());
  return STORED + id;
}

/** The draft a button's value carries or names; undefined for anything else. */
export async function loadDraft(store: Store, value: string): Promise<Draft | undefined> {
  if (value.startsWith(INLINE)) return decodeDraft(value.slice(INLINE.length));
  if (!value.startsWith(STORED)) return undefined;
  const row = await store.getState<{ draft?: string }>(KEY_PREFIX + value.slice(STORED.length));
  return typeof row?.draft === 'string' ? decodeDraft(row.draft) : undefined;
}

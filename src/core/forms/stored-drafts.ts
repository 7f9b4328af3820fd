import { randomUUID } from 'node:crypto';
import type { Store } from '../../store/index.js';

const KEY_PREFIX = 'modal-draft:';

/** Keeps an encoded draft too large to travel with its button; returns the ID that names it. */
export async function storeDraft(store: Pick<Store, 'setState'>, encoded: string, at: Date): Promise<string> {
  const id = randomUUID();
  await store.setState(KEY_PREFIX + id, { draft: encoded }, at.getTime());
  return id;
}

/** The encoded draft an ID names; undefined when there is none. */
export async function storedDraft(store: Pick<Store, 'getState'>, id: string): Promise<string | undefined> {
  const row = await store.getState<{ draft?: string }>(KEY_PREFIX + id);
  return typeof row?.draft === 'string' ? row.draft : undefined;
}

import type { Store } from '../../store/index.js';

/** Where a copy of a request was shown apart from its first message: a conversation and a message in it. */
export interface RequestCopy {
  channel: string;
  ts: string;
}

const KEY = 'approval-copies:';

/** Remembers every copy of a request, so that each later change updates them all, on any replica. */
export async function recordCopies(
  store: Pick<Store, 'setState'>,
  requestId: string,
  copies: RequestCopy[],
  at: number,
): Promise<void> {
  await store.setState(KEY + requestId, { copies }, at);
}

/** The copies of a request, none when none were recorded. */
export async function copiesOf(store: Pick<Store, 'getState'>, requestId: string): Promise<RequestCopy[]> {
  const row = await store.getState<{ copies?: RequestCopy[] }>(KEY + requestId);
  return Array.isArray(row?.copies) ? row.copies : [];
}

import { maxRangesOf } from '../../core/forms/fields.js';
import { decodeMeta, type ModalMeta } from '../views/modals/metadata.js';
import { readModalState, type StateValues } from '../views/modals/state.js';
import type { ModalDeps, WebClient } from './deps.js';
import { errText } from './deps.js';
import { viewFor } from './open.js';

export type RangeChange = { kind: 'preview' } | { kind: 'add' } | { kind: 'remove'; key: number };

export interface ViewActionBody {
  user: { id: string };
  view?: { id: string; hash: string; private_metadata?: string; state?: { values: StateValues } };
}

/**
 * A block_actions inside one of our modals: Enter in a range input (preview), "Add another range", or a
 * remove button. Rebuilds the whole view from what is typed (same block ids, so Slack keeps every value)
 * and updates it in place, guarded by the view hash.
 */
export async function onRangeChange(
  deps: ModalDeps,
  client: WebClient,
  body: ViewActionBody,
  change: RangeChange,
) {
  const view = body.view;
  const meta = decodeMeta(view?.private_metadata);
  if (!view || !meta) {
    deps.logger.warn(
      { user: body.user.id },
      'range action on a view without readable private_metadata: ignored',
    );
    return;
  }
  const log = deps.logger.child({ user: body.user.id, modal: meta.kind });
  const { fields } = readModalState(meta, view.state?.values);
  let next: ModalMeta = meta;
  const ranges = [...(fields.ranges ?? [])];
  if (change.kind === 'add' && meta.ranges.length < maxRangesOf(meta.kind)) {
    next = { ...meta, ranges: [...meta.ranges, meta.next], next: meta.next + 1 };
    ranges.push('');
  } else if (change.kind === 'remove' && meta.ranges.length > 1) {
    const at = meta.ranges.indexOf(change.key);
    if (at < 0) return;
    next = { ...meta, ranges: meta.ranges.filter((k) => k !== change.key) };
    ranges.splice(at, 1);
  }
  if (!next.timeZone) {
    const [timeZone, info] = await Promise.all([deps.zoneOf(body.user.id), deps.users.lookup(body.user.id)]);
    next = { ...next, timeZone, ...(info.locale ? { locale: info.locale } : {}) };
  }
  try {
    await client.views.update({
      view_id: view.id,
      hash: view.hash,
      view: viewFor(deps, next, { ...fields, ranges }),
    });
  } catch (e) {
    // hash_conflict: a newer update won; the user's next action rebuilds from the current state.
    log.info({ err: errText(e) }, 'range update skipped');
  }
}

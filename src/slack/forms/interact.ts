import { channelShifts } from '../../core/channel-defaults.js';
import { maxRangesOf } from '../../core/forms/fields.js';
import { formatShifts } from '../../core/time.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import type { Job } from '../runtime/jobs.js';
import { viewFor } from './open.js';
import { decodeMeta, type ModalMeta } from './views/metadata.js';
import { readModalState, type StateValues } from './views/state.js';

/**
 * After Enter in a range input (preview), "Add another range", or a remove button: rebuilds the whole
 * view from what is typed (same block ids, so Slack keeps every value) and updates it in place, guarded
 * by the view's hash.
 */
export async function followRangeChange(job: Extract<Job, { kind: 'form-range' }>, bot: Bot): Promise<void> {
  const { view, change } = job;
  const meta = decodeMeta(view.privateMetadata);
  if (!meta) {
    bot.logger.warn(
      { user: job.userId },
      'range action on a view without readable private_metadata: ignored',
    );
    return;
  }
  const { fields } = readModalState(meta, view.values as StateValues);
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
    const [timeZone, info, shifts] = await Promise.all([
      bot.zoneOf(job.userId),
      bot.users.lookup(job.userId),
      channelShifts(bot.store, meta.channel),
    ]);
    next = {
      ...next,
      timeZone,
      ...(info.locale ? { locale: info.locale } : {}),
      ...(shifts ? { shifts: formatShifts(shifts) } : {}),
    };
  }
  try {
    await bot.slack.views.update({
      view_id: view.id,
      hash: view.hash,
      view: viewFor(bot, next, { ...fields, ranges }),
    });
  } catch (e) {
    // hash_conflict: a newer update won; the user's next action rebuilds from the current state.
    bot.logger.info({ user: job.userId, modal: meta.kind, err: errText(e) }, 'range update skipped');
  }
}

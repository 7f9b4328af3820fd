import {
  type ModalFields,
  type ModalKind,
  maxRangesOf,
  type RangePreview,
  rangeBlockId,
  type TextFieldName,
} from '../../core/forms/fields.js';
import { previewRange } from '../../core/forms/preview.js';
import { defaultName } from '../../core/names.js';
import { buildModalView } from '../views/modals/build.js';
import { initialRangeKeys, type ModalMeta } from '../views/modals/metadata.js';
import { errText, type ModalDeps, OPERATION_WORD, type WebClient } from './deps.js';

export interface OpenModalRequest {
  client: WebClient;
  triggerId: string;
  userId: string;
  kind: ModalKind;
  fields: ModalFields;
  origin: ModalMeta['origin'];
  /** Known when opened from a command (or reopened from one); absent from a global shortcut. */
  channel?: string;
  responseUrl?: string;
  /** Fields the command filled from the channel's defaults (the modal says so). */
  fromDefaults?: TextFieldName[];
}

/** Previews for every non-empty range input, in the user's zone. */
export function previewsFor(meta: ModalMeta, fields: ModalFields, now: Date, timeZone: string) {
  const previews: Record<string, RangePreview> = {};
  meta.ranges.forEach((key, i) => {
    const p = previewRange(fields.ranges?.[i] ?? '', {
      now,
      timeZone,
      requirePast: true,
      ...(meta.locale ? { locale: meta.locale } : {}),
    });
    if (p) previews[rangeBlockId(key)] = p;
  });
  return previews;
}

/** Builds the view for a meta + fields, with previews, default name and zone when the meta knows them. */
export function viewFor(deps: ModalDeps, meta: ModalMeta, fields: ModalFields) {
  const now = deps.now();
  const tz = meta.timeZone;
  return buildModalView({
    meta,
    fields,
    previews: tz ? previewsFor(meta, fields, now, tz) : undefined,
    defaultName: meta.userName ? defaultName(OPERATION_WORD[meta.kind], meta.userName, now) : undefined,
    timeZone: tz,
  });
}

/**
 * Opens a modal at once (the trigger_id expires 3 s after the interaction), then looks up the slow parts
 * (the user's zone and name, for range previews and the default flow name) and updates the view in place,
 * guarded by its hash.
 * Returns false when Slack refused to open it.
 */
export async function openModal(deps: ModalDeps, req: OpenModalRequest): Promise<boolean> {
  const log = deps.logger.child({ user: req.userId, modal: req.kind });
  const max = maxRangesOf(req.kind);
  let ranges = req.fields.ranges ?? [];
  // More prefilled ranges than inputs (EVAL takes one): keep them together so validation can say so.
  if (ranges.length > max) ranges = [...ranges.slice(0, max - 1), ranges.slice(max - 1).join('; ')];
  const fields: ModalFields = { ...req.fields, ranges };
  const meta: ModalMeta = {
    kind: req.kind,
    origin: req.origin,
    ...(req.channel ? { channel: req.channel } : {}),
    ...(req.responseUrl ? { responseUrl: req.responseUrl } : {}),
    ...(req.fromDefaults?.length ? { defaults: req.fromDefaults } : {}),
    ...initialRangeKeys(ranges.length, max),
  };

  let opened: { id: string; hash: string };
  try {
    const res = await req.client.views.open({
      trigger_id: req.triggerId,
      view: buildModalView({ meta, fields }),
    });
    if (!res.view?.id || !res.view.hash) throw new Error('views.open returned no view');
    opened = { id: res.view.id, hash: res.view.hash };
  } catch (e) {
    log.warn({ err: errText(e) }, 'could not open the modal');
    return false;
  }

  try {
    const [info, timeZone] = await Promise.all([deps.users.lookup(req.userId), deps.zoneOf(req.userId)]);
    const enriched: ModalMeta = {
      ...meta,
      timeZone,
      userName: info.name ?? req.userId,
      ...(info.locale ? { locale: info.locale } : {}),
    };
    await req.client.views.update({
      view_id: opened.id,
      hash: opened.hash,
      view: viewFor(deps, enriched, fields),
    });
  } catch (e) {
    // hash_conflict: the user already interacted and the view was rebuilt from what they typed.
    log.info({ err: errText(e) }, 'modal opened without its follow-up update');
  }
  return true;
}

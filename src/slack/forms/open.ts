import { idsOf } from '../../core/catalog/kind.js';
import { knownName } from '../../core/catalog/known.js';
import { resolveName } from '../../core/catalog/resolve.js';
import { channelShifts } from '../../core/channel-defaults.js';
import { commandLineOf } from '../../core/forms/command-line.js';
import {
  type FormId,
  type ModalFields,
  maxRangesOf,
  type RangePreview,
  rangeBlockId,
  selectFields,
  textIn,
} from '../../core/forms/fields.js';
import { fieldsFromCommand } from '../../core/forms/prefill.js';
import { previewRange } from '../../core/forms/preview.js';
import { defaultName } from '../../core/names.js';
import { entryOfForm, REGISTRY } from '../../core/operations/registry/index.js';
import { formatShifts, parseShifts } from '../../core/time.js';
import { errText } from '../../log.js';
import { type AskedVia, typedOn } from '../asked.js';
import type { Bot } from '../bot.js';
import { type Audience, say, tellUser } from '../reply.js';
import type { Job } from '../runtime/jobs.js';
import { slackFailure, slackFailureText } from '../slack-errors.js';
import { goesBy } from '../users.js';
import { code, escapeMrkdwn, type KnownBlock, section } from '../views/mrkdwn.js';
import { loadDraft, saveDraft } from './drafts.js';
import { buildModalView } from './views/build.js';
import { MODAL_ACTION } from './views/ids.js';
import { initialRangeKeys, type ModalMeta } from './views/metadata.js';

/** The operation word of a form: its command's, as the command path names flows (`learn by @alice …`). */
export function operationWordOf(kind: FormId): string {
  return entryOfForm(kind)?.command.id ?? kind;
}

/** The commands that open a form, as a person reads them: "`/tsai learn`, `relearn` or `eval`". */
function formCommands(): string {
  const words = REGISTRY.flatMap((e) => (e.form ? [e.command.id] : []));
  const shown = words.map((w, i) => (i === 0 ? `\`/tsai ${w}\`` : `\`${w}\``));
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}` : (shown[0] ?? '');
}

export interface OpenFormRequest {
  triggerId: string;
  userId: string;
  /** The user's Slack team: whose catalog names the resources the form holds. */
  teamId?: string;
  kind: FormId;
  fields: ModalFields;
  origin: ModalMeta['origin'];
  /** Known when opened from a command (or reopened from one); absent from a global shortcut. */
  channel?: string;
  /** The thread within that channel it was asked from (a mention): its outcome is told there. */
  threadTs?: string;
  responseUrl?: string;
  /** A response_url to tell the person through if the form does not open, when not `responseUrl` (a click's). */
  replyUrl?: string;
  /** The arguments the command filled from the channel's defaults, by key (the modal says so). */
  fromDefaults?: string[];
}

/** Previews for every non-empty range input, in the user's zone. */
export function previewsFor(meta: ModalMeta, fields: ModalFields, now: Date, timeZone: string) {
  const previews: Record<string, RangePreview> = {};
  const shifts = meta.shifts ? parseShifts(meta.shifts) : undefined;
  meta.ranges.forEach((key, i) => {
    const p = previewRange(fields.ranges?.[i] ?? '', {
      now,
      timeZone,
      requirePast: true,
      ...(meta.locale ? { locale: meta.locale } : {}),
      ...(shifts?.ok ? { shifts: shifts.shifts } : {}),
    });
    if (p) previews[rangeBlockId(key)] = p;
  });
  return previews;
}

/** Builds the view for a meta + fields, with previews, default name and zone when the meta knows them. */
export function viewFor(bot: Bot, meta: ModalMeta, fields: ModalFields, names?: Record<string, string>) {
  const now = bot.now();
  const tz = meta.timeZone;
  return buildModalView({
    meta,
    fields,
    previews: tz ? previewsFor(meta, fields, now, tz) : undefined,
    defaultName: meta.userName ? defaultName(operationWordOf(meta.kind), meta.userName, now) : undefined,
    timeZone: tz,
    ...(names ? { names } : {}),
  });
}

/**
 * What the team's catalog says of the resources a form holds: their names, for the options' text; and
 * for a single field that holds a name rather than an ID (a form reopened from a command that gave
 * names), the ID it stands for, when exactly one resource has that name.
 */
async function namesOf(
  bot: Bot,
  teamId: string,
  form: FormId,
  fields: ModalFields,
): Promise<{ fields: ModalFields; names: Record<string, string> }> {
  const names: Record<string, string> = {};
  const out: ModalFields = { ...fields };
  for (const { name, resource, multi, arg } of selectFields(form)) {
    const value = textIn(out, name);
    if (value === undefined || value.trim() === '') continue;
    const ids = idsOf(arg.lookup);
    if (!multi && !ids.is(value.trim())) {
      const r = await resolveName(bot.store, { teamId, kind: resource, text: value, ids });
      if (r.ok) out[name] = r.id;
    }
    for (const entry of String(out[name]).split(/[\n,]/)) {
      const id = entry.split(':')[0]!.trim();
      if (!ids.is(id) || names[id]) continue;
      const known = await knownName(bot.store, teamId, resource.name, id);
      if (known) names[id] = known;
    }
  }
  return { fields: out, names };
}

/**
 * Opens a modal at once (the trigger_id expires 3 s after the interaction; only the catalog's names of
 * what it holds are read first), then looks up the slow parts (the user's zone and name, for range
 * previews and the default flow name) and updates the view in place, guarded by its hash.
 * Returns false when Slack refused to open it.
 */
export async function openForm(bot: Bot, req: OpenFormRequest): Promise<boolean> {
  const log = bot.logger.child({ user: req.userId, modal: req.kind });
  const max = maxRangesOf(req.kind);
  let ranges = req.fields.ranges ?? [];
  // More prefilled ranges than inputs (EVAL takes one): keep them together so validation can say so.
  if (ranges.length > max) ranges = [...ranges.slice(0, max - 1), ranges.slice(max - 1).join('; ')];
  const fields: ModalFields = { ...req.fields, ranges };
  const meta: ModalMeta = {
    kind: req.kind,
    origin: req.origin,
    ...(req.channel ? { channel: req.channel } : {}),
    ...(req.channel && req.threadTs ? { thread: req.threadTs } : {}),
    ...(req.responseUrl ? { responseUrl: req.responseUrl } : {}),
    ...(req.fromDefaults?.length ? { defaults: req.fromDefaults } : {}),
    ...initialRangeKeys(ranges.length, max),
  };

  // The catalog is a store read away: the held resources open showing their names, which a later
  // update could not put in front of a value Slack already shows.
  const known = req.teamId
    ? await namesOf(bot, req.teamId, req.kind, fields).catch((e: unknown) => {
        log.warn({ err: errText(e) }, 'could not read the names of the resources a form holds');
        return undefined;
      })
    : undefined;
  const shown = known?.fields ?? fields;

  let opened: { id: string; hash: string };
  try {
    const res = await bot.slack.views.open({
      trigger_id: req.triggerId,
      view: buildModalView({ meta, fields: shown, ...(known ? { names: known.names } : {}) }),
    });
    if (!res.view?.id || !res.view.hash) throw new Error('views.open returned no view');
    opened = { id: res.view.id, hash: res.view.hash };
  } catch (e) {
    log.warn({ err: errText(e) }, 'could not open the modal');
    await formDidNotOpen(bot, req, fields, e);
    return false;
  }

  try {
    const [info, timeZone, shifts] = await Promise.all([
      bot.users.lookup(req.userId),
      bot.zoneOf(req.userId),
      channelShifts(bot.store, meta.channel),
    ]);
    const userName = goesBy(info);
    const enriched: ModalMeta = {
      ...meta,
      timeZone,
      ...(shifts ? { shifts: formatShifts(shifts) } : {}),
      ...(userName ? { userName } : {}),
      ...(info.locale ? { locale: info.locale } : {}),
    };
    await bot.slack.views.update({
      view_id: opened.id,
      hash: opened.hash,
      view: viewFor(bot, enriched, shown, known?.names),
    });
  } catch (e) {
    // hash_conflict: the user already interacted and the view was rebuilt from what they typed.
    log.info({ err: errText(e) }, 'modal opened without its follow-up update');
  }
  return true;
}

/**
 * Slack did not let a form open (its trigger_id lasts 3 seconds and the bot was slower, or Slack failed
 * or refused the token): the person is told why, with a button that opens it again with everything they
 * gave (a new click brings a new trigger_id) and the same request as one command, so nothing is lost.
 */
async function formDidNotOpen(bot: Bot, req: OpenFormRequest, fields: ModalFields, e: unknown) {
  const value = await saveDraft(bot.store, bot.now(), {
    kind: req.kind,
    userId: req.userId,
    ...(req.channel ? { channel: req.channel } : {}),
    ...(req.threadTs ? { threadTs: req.threadTs } : {}),
    fields,
  }).catch((err: unknown) => {
    bot.logger.warn(
      { user: req.userId, err: errText(err) },
      'could not keep the inputs of a form that did not open',
    );
    return undefined;
  });
  const why = escapeMrkdwn(slackFailureText(slackFailure(e)));
  const again = value ? 'Click *Open the form* to get it with what you gave, or run' : 'Run';
  const text = `The ${operationWordOf(req.kind)} form did not open: ${why}. Nothing was sent. ${again} it as one command: ${code(commandLineOf(req.kind, fields))}`;
  const blocks: KnownBlock[] = [section(`:warning: ${text}`)];
  if (value) blocks.push(openFormActions(value, 'Open the form'));
  const urls = [req.replyUrl, req.responseUrl].filter((u): u is string => !!u);
  await tellUser(
    bot,
    {
      userId: req.userId,
      ...(req.channel ? { channelId: req.channel } : {}),
      ...(req.threadTs ? { threadTs: req.threadTs } : {}),
      responseUrls: urls,
    },
    { text, blocks },
  );
}

/** The button that opens a form again with the inputs a draft (`value`, from `saveDraft`) keeps. */
export function openFormActions(value: string, label: 'Open the form' | 'Reopen with my inputs'): KnownBlock {
  return {
    type: 'actions',
    block_id: 'modal_reopen',
    elements: [
      {
        type: 'button',
        action_id: MODAL_ACTION.reopen,
        text: { type: 'plain_text', text: label, emoji: true },
        value,
        style: 'primary',
      },
    ],
  };
}

/** What a typed command gave toward a form, where the form cannot open at once. */
export type OfferedForm = Omit<OpenFormRequest, 'triggerId' | 'origin' | 'responseUrl' | 'replyUrl'>;

/**
 * A command typed in a message (a mention, the Messages tab) left arguments to fill in, and a message
 * gives the bot no trigger to open a form with: the person alone is offered a button that opens the form
 * with what they gave (its click brings a trigger), and the whole request as one message instead.
 */
export async function offerForm(
  bot: Bot,
  req: OfferedForm,
  o: { to: Audience; via: AskedVia },
): Promise<void> {
  const value = await saveDraft(bot.store, bot.now(), {
    kind: req.kind,
    userId: req.userId,
    ...(req.channel ? { channel: req.channel } : {}),
    ...(req.threadTs ? { threadTs: req.threadTs } : {}),
    fields: req.fields,
  });
  const oneLine = typedOn(o.via, commandLineOf(req.kind, req.fields));
  const text = `The ${operationWordOf(req.kind)} form holds what you gave: click *Open the form* to fill in the rest. Or give it all in one message, as in ${code(oneLine)}`;
  await tellUser(bot, o.to, {
    text,
    blocks: [section(`:memo: ${text}`), openFormActions(value, 'Open the form')],
  });
}

/** A global shortcut asked for a form: open it, empty, at once (its trigger lasts 3 seconds). */
export async function followShortcut(job: Extract<Job, { kind: 'form-open' }>, bot: Bot): Promise<void> {
  await openForm(bot, {
    triggerId: job.triggerId,
    userId: job.userId,
    ...(job.teamId ? { teamId: job.teamId } : {}),
    kind: job.form,
    fields: fieldsFromCommand(job.form, {}),
    origin: 'shortcut',
  });
}

/** "Reopen with my inputs": the form again, with everything its owner typed. */
export async function followReopen(job: Extract<Job, { kind: 'form-reopen' }>, bot: Bot): Promise<void> {
  const to = { userId: job.userId, responseUrls: job.responseUrl ? [job.responseUrl] : [] };
  const tell = (text: string) => say(bot, to, text);
  const draft = await loadDraft(bot.store, job.value).catch((e: unknown) => {
    bot.logger.warn({ user: job.userId, err: errText(e) }, 'could not load a form draft');
    return undefined;
  });
  if (!draft)
    return void (await tell(
      `Those inputs are no longer available. Open the form again with ${formCommands()}.`,
    ));
  if (draft.userId !== job.userId) {
    bot.logger.warn(
      { user: job.userId, owner: draft.userId },
      'reopen refused: the inputs belong to another user',
    );
    return void (await tell('Only the person who filled in this form can reopen it.'));
  }
  await openForm(bot, {
    triggerId: job.triggerId,
    userId: job.userId,
    ...(job.teamId ? { teamId: job.teamId } : {}),
    kind: draft.kind,
    fields: draft.fields,
    origin: 'reopen',
    ...(draft.channel ? { channel: draft.channel } : {}),
    ...(draft.threadTs ? { threadTs: draft.threadTs } : {}),
    ...(job.responseUrl ? { replyUrl: job.responseUrl } : {}),
  });
}

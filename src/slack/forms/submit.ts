import { channelShifts } from '../../core/channel-defaults.js';
import { commandLineOf } from '../../core/forms/command-line.js';
import { blockIdOf, labelledFields, textIn } from '../../core/forms/fields.js';
import { labelPicks } from '../../core/forms/options.js';
import { checkRepeat, isFixedRange, RELATIVE_RANGE_EXAMPLE } from '../../core/forms/repeat.js';
import { validateModal } from '../../core/forms/validate.js';
import { defaultName } from '../../core/names.js';
import type { Actor } from '../../core/operations/operation.js';
import type { OpFailure } from '../../core/outcome.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { announceFlow } from '../flows/index.js';
import { type Audience, postInChannel, tellUser } from '../reply.js';
import { teamOf } from '../tenant.js';
import { goesBy } from '../users.js';
import { errorMessage, type Invocation, resultMessage } from '../views/messages.js';
import { saveDraft } from './drafts.js';
import type { Submission } from './jobs.js';
import { recordOutcome, runsOnce, submissionKey } from './once.js';
import { openFormActions, operationWordOf } from './open.js';
import { decodeMeta } from './views/metadata.js';
import { readModalState, type StateValues } from './views/state.js';

export interface SubmissionBody {
  user: { id: string; name?: string; username?: string; team_id?: string };
  team?: { id: string } | null;
  view: { id?: string; private_metadata?: string; state?: { values: StateValues } };
  response_urls?: { response_url: string; channel_id: string }[];
}

/** A form whose private_metadata cannot be read: an older version of the bot opened it, or it was cut. */
export const UNREADABLE_FORM =
  'This form cannot be read (an older version of the bot may have opened it), so nothing was sent. Close it and open it again.';

export type SubmissionAck = { response_action: 'errors'; errors: Record<string, string> } | undefined;

/**
 * A form's submission before the ack: every field is checked at once, with no Slack or service call
 * unless the zone is not yet known (the catalog gives picked signals their labels), so the ack either
 * carries an error under each bad field (the form stays open with everything typed) or closes it and
 * hands on what to run.
 */
export async function checkSubmission(
  bot: Bot,
  body: SubmissionBody,
): Promise<{ ack: SubmissionAck; submission?: Submission }> {
  const meta = decodeMeta(body.view.private_metadata);
  const userId = body.user.id;
  if (!meta) {
    bot.logger.warn({ user: userId }, 'form submission without readable private_metadata');
    // Kept open with a message (nothing typed is lost), rather than closed with nothing done.
    const first = Object.keys(body.view.state?.values ?? {})[0];
    return { ack: first ? { response_action: 'errors', errors: { [first]: UNREADABLE_FORM } } : undefined };
  }
  const { fields, form } = readModalState(meta, body.view.state?.values);
  const teamId = teamOf(body);
  // A picked signal is run with its label, as a typed `id:label` would be.
  for (const field of labelledFields(meta.kind)) {
    const picked = textIn(form, field.name);
    if (teamId && picked)
      form[field.name] = fields[field.name] = await labelPicks(bot.store, teamId, field, picked);
  }
  const now = bot.now();
  const timeZone = meta.timeZone ?? (await bot.zoneOf(userId));
  // Looked up with the zone: a meta that has the zone but no locale means Slack gave none.
  const locale = meta.timeZone ? meta.locale : (await bot.users.lookup(userId)).locale;
  const userName =
    meta.userName ?? goesBy(await bot.users.lookup(userId), body.user.username, body.user.name);
  // Ranges may name the shifts of the channel the form runs in, read afresh (they may have changed).
  const shifts = await channelShifts(bot.store, meta.channel ?? (form.channel as string | undefined));
  const outcome = validateModal(meta.kind, form, {
    now,
    timeZone,
    ...(locale ? { locale } : {}),
    ...(shifts ? { shifts } : {}),
    defaultName: defaultName(operationWordOf(meta.kind), userName, now),
    needsChannel: !meta.channel,
  });
  const repeat = repeatErrors(fields.repeat, form.ranges, {
    zone: timeZone,
    now: now.getTime(),
    ...(locale ? { locale } : {}),
  });
  if (!outcome.ok || repeat)
    return {
      ack: { response_action: 'errors', errors: { ...(outcome.ok ? {} : outcome.errors), ...repeat } },
    };
  const channelId = meta.channel ?? outcome.channel!;
  return {
    ack: undefined,
    submission: {
      userId,
      ...(teamId ? { teamId } : {}),
      meta,
      fields,
      operation: outcome.request,
      timeZone,
      channelId,
      ...withKey(submissionKey(teamId, body.view)),
      responseUrls: [
        ...(body.response_urls ?? []).filter((r) => r.channel_id === channelId).map((r) => r.response_url),
        ...(meta.responseUrl ? [meta.responseUrl] : []),
      ],
    },
  };
}

/**
 * A valid form after the ack: the operation runner runs it as it runs a command; the result is posted in
 * the channel, and a refusal or failure goes to the person with a button that reopens the form.
 */
export async function followSubmission(s: Submission, bot: Bot): Promise<void> {
  const who: Invocation = { userId: s.userId, commandText: commandLineOf(s.meta.kind, s.fields) };
  // A form asked from a thread (a mention) answers in that thread, when it runs in that thread's channel.
  const thread = s.meta.thread && s.meta.channel === s.channelId ? s.meta.thread : undefined;
  const to: Audience = {
    userId: s.userId,
    channelId: s.channelId,
    ...(thread ? { threadTs: thread, typedOn: 'mention' as const } : {}),
    responseUrls: s.responseUrls,
  };
  if (!(await runsOnce(bot, s.key, to))) return;
  if (s.fields.repeat) return scheduleForm(bot, s, to, who);
  const actor: Actor = {
    userId: s.userId,
    ...(s.teamId ? { teamId: s.teamId } : {}),
    channelId: s.channelId,
    ...(thread ? { threadTs: thread } : {}),
    asked: who.commandText,
    timeZone: s.timeZone,
    via: 'form',
    surface: 'form',
  };
  const result = await bot.operations.run(actor, s.operation);
  if (!result.ok) {
    await recordOutcome(bot, s.key, errorMessage(result, who));
    return reportFailure(bot, s, to, result, who);
  }
  if (result.kind === 'service') {
    const body = resultMessage(result, who);
    await recordOutcome(bot, s.key, body);
    // A followed flow is announced where its status can be updated in place.
    const posted =
      result.flow && bot.tracker
        ? await announceFlow(bot, to, body, { teamId: s.teamId, flowId: result.flow.id })
        : await postInChannel(bot, to, body);
    if (posted) return;
  }
  const flow =
    result.kind === 'service' && result.flow ? ` (flow ${result.flow.id}, ${result.flow.status})` : '';
  await tellUser(
    bot,
    to,
    errorMessage(
      {
        ok: false,
        message: `The flow was created${flow}, but the result could not be posted in the channel: invite the bot to it.`,
      },
      who,
    ),
  );
}

/** A form with a "Repeat": its command becomes a schedule through the one schedule path; nothing runs now. */
async function scheduleForm(bot: Bot, s: Submission, to: Audience, who: Invocation): Promise<void> {
  const { askerOf, scheduleCommandLine } = await import('../schedules/create.js');
  const asker = await askerOf(bot, {
    userId: s.userId,
    ...(s.teamId ? { teamId: s.teamId } : {}),
    channelId: s.channelId,
    ...(s.meta.userName ? { userName: s.meta.userName } : {}),
  });
  const made = await scheduleCommandLine(
    bot,
    asker,
    { whenText: s.fields.repeat!, commandText: who.commandText },
    to,
  );
  if (made.ok) return void (await recordOutcome(bot, s.key, made.body));
  await recordOutcome(bot, s.key, errorMessage(made, who));
  return reportFailure(bot, s, to, made, who);
}

/**
 * The "Repeat" field's problems, under the field concerned: an unreadable "when", or a range of fixed
 * dates, which every run would read the same (a relative one is read again at each run).
 */
function repeatErrors(
  repeat: string | undefined,
  ranges: readonly { blockId: string; text: string }[],
  o: { zone: string; now: number; locale?: string },
): Record<string, string> | undefined {
  if (!repeat) return undefined;
  const when = checkRepeat(repeat, o);
  if (!when.ok) return { [blockIdOf('repeat')]: when.error };
  const fixed = ranges.find((r) => isFixedRange(r.text, o));
  if (!fixed) return undefined;
  return {
    [fixed.blockId]: `A schedule reads its range again at each run, and this one names fixed dates, so every run would read the same past data. Give a relative range, e.g. ${RELATIVE_RANGE_EXAMPLE}.`,
  };
}

/** The failure, privately, with "Reopen with my inputs": no input is lost. */
async function reportFailure(bot: Bot, s: Submission, to: Audience, failure: OpFailure, who: Invocation) {
  const message = errorMessage(failure, who);
  try {
    const value = await saveDraft(bot.store, bot.now(), {
      kind: s.meta.kind,
      userId: s.userId,
      ...(s.meta.channel ? { channel: s.meta.channel } : {}),
      ...(s.meta.thread ? { threadTs: s.meta.thread } : {}),
      fields: s.fields,
    });
    message.blocks.push(openFormActions(value, 'Reopen with my inputs'));
  } catch (e) {
    bot.logger.warn({ user: s.userId, err: errText(e) }, 'could not keep the typed values');
  }
  await tellUser(bot, to, message);
}

const withKey = (key: string | undefined) => (key ? { key } : {});

import type {
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import type { FollowUps, Job } from '../runtime/jobs.js';
import { teamOf } from '../tenant.js';
import type { SubmissionBody } from './submit.js';
import {
  formOfShortcut,
  MODAL_ACTION,
  MODAL_CALLBACK_PATTERN,
  modalKindOfCallback,
  REMOVE_RANGE_PATTERN,
  SHORTCUT_CALLBACK_PATTERN,
} from './views/ids.js';

/** The forms' submissions, by the view's `callback_id`. */
export const FORM_CALLBACKS = MODAL_CALLBACK_PATTERN;
/** The global shortcuts that open the forms. */
export const FORM_SHORTCUTS = SHORTCUT_CALLBACK_PATTERN;
/** The actions inside the forms (range preview, add and remove a range) and "Reopen with my inputs". */
export const FORM_ACTIONS = new RegExp(
  `^(${[MODAL_ACTION.range, MODAL_ACTION.addRange, MODAL_ACTION.reopen].join('|')}|${REMOVE_RANGE_PATTERN.source.slice(1, -1)})$`,
);
export async function ackShortcut(
  { ack, shortcut }: Pick<SlackShortcutMiddlewareArgs, 'ack' | 'shortcut'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  const form = formOfShortcut(shortcut.callback_id);
  const teamId = teamOf(shortcut);
  if (form)
    followUps.run({
      kind: 'form-open',
      userId: shortcut.user.id,
      ...(teamId ? { teamId } : {}),
      triggerId: shortcut.trigger_id,
      form,
    });
}

export async function ackFormAction(
  { ack, body, action }: Pick<SlackActionMiddlewareArgs<BlockAction>, 'ack' | 'body' | 'action'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  const id = action.action_id;
  const value = (action as ButtonAction).value;
  if (id === MODAL_ACTION.reopen) {
    const teamId = teamOf(body);
    followUps.run({
      kind: 'form-reopen',
      userId: body.user.id,
      ...(teamId ? { teamId } : {}),
      triggerId: body.trigger_id,
      value: value ?? '',
      ...(body.response_url ? { responseUrl: body.response_url } : {}),
    });
    return;
  }
  const change: Extract<Job, { kind: 'form-range' }>['change'] | undefined =
    id === MODAL_ACTION.range
      ? { kind: 'preview' }
      : id === MODAL_ACTION.addRange
        ? { kind: 'add' }
        : REMOVE_RANGE_PATTERN.test(id) && Number.isInteger(Number(value))
          ? { kind: 'remove', key: Number(value) }
          : undefined;
  const view = body.view;
  if (!change || !view) return;
  followUps.run({
    kind: 'form-range',
    userId: body.user.id,
    view: {
      id: view.id,
      hash: view.hash,
      privateMetadata: view.private_metadata ?? '',
      values: view.state?.values ?? {},
    },
    change,
  });
}

/** Validation is the acknowledgement: errors under their fields, or the form closes and the work goes on. */
export async function ackSubmission(
  { ack, body }: Pick<SlackViewMiddlewareArgs<ViewSubmitAction>, 'ack' | 'body'>,
  bot: Bot,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  // The route takes every callback of a form's shape (forms may be registered after it is set up); one
  // that names no form in the registry is dropped as a request no listener answers.
  if (modalKindOfCallback(body.view.callback_id) === undefined) {
    bot.logger.warn(
      { route: 'viewSubmissions', id: body.view.callback_id, user: body.user.id },
      'no listener answers this request; acknowledged, nothing done',
    );
    return void (await ack());
  }
  let checked: Awaited<ReturnType<typeof import('./submit.js').checkSubmission>>;
  try {
    // The forms' code loads with the first submission, not at start-up (cold start).
    const { checkSubmission } = await import('./submit.js');
    checked = await checkSubmission(bot, body as unknown as SubmissionBody);
  } catch (e) {
    bot.logger.error({ err: errText(e), user: body.user.id }, 'form submission could not be checked');
    // Keep the form (and everything typed) open with a message under its first input.
    const first = Object.keys(body.view.state?.values ?? {})[0];
    await ack(
      first
        ? {
            response_action: 'errors',
            errors: { [first]: 'Something went wrong inside the bot; try again.' },
          }
        : undefined,
    );
    return;
  }
  await ack(checked.ack);
  if (checked.submission) followUps.run({ kind: 'form-submitted', submission: checked.submission });
}

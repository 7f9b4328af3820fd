import type {
  App,
  BlockAction,
  BlockSuggestion,
  ButtonAction,
  SlackActionMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { ModalKind } from '../../core/forms/fields.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import type { Routes } from '../routes.js';
import type { FollowUps, Job } from '../runtime/jobs.js';
import type { SubmissionBody } from './submit.js';
import {
  FIELD_OPTIONS_PATTERN,
  MODAL_ACTION,
  MODAL_CALLBACK,
  REMOVE_RANGE_PATTERN,
  SHORTCUT_CALLBACK,
} from './views/ids.js';

const CALLBACKS = new RegExp(`^(${Object.values(MODAL_CALLBACK).join('|')})$`);
const SHORTCUTS = new RegExp(`^(${Object.values(SHORTCUT_CALLBACK).join('|')})$`);
const ACTIONS = new RegExp(
  `^(${[MODAL_ACTION.range, MODAL_ACTION.addRange, MODAL_ACTION.reopen].join('|')}|${REMOVE_RANGE_PATTERN.source.slice(1, -1)})$`,
);
/** What the forms answer (`registerForms` registers exactly these). */
export const FORM_ROUTES = {
  shortcuts: SHORTCUTS,
  actions: ACTIONS,
  options: FIELD_OPTIONS_PATTERN,
  viewSubmissions: CALLBACKS,
} satisfies Routes;
const SHORTCUT_KINDS = new Map<string, ModalKind>(
  (Object.entries(SHORTCUT_CALLBACK) as [ModalKind, string][]).map(([kind, id]) => [id, kind]),
);

/**
 * The anomaly and EVAL forms: the global shortcuts that open them, the actions inside them (range
 * preview, add and remove a range), "Reopen with my inputs", the options of their type-ahead fields, and
 * the submission. One listener per surface: Bolt runs every listener's middleware for every incoming
 * request (docs/performance.md). Their follow-ups are in `open.ts`, `interact.ts` and `submit.ts`; the
 * options are answered in the ack (`options.ts`).
 */
export function registerForms(app: App, bot: Bot, followUps: FollowUps): void {
  const r = FORM_ROUTES;
  app.shortcut({ callback_id: r.shortcuts, type: 'shortcut' }, (args) => ackShortcut(args, followUps));
  app.action<BlockAction>(r.actions, (args) => ackFormAction(args, followUps));
  app.options<'block_suggestion'>({ type: 'block_suggestion', action_id: r.options }, (args) =>
    ackOptions(args, bot),
  );
  app.view<ViewSubmitAction>({ callback_id: r.viewSubmissions, type: 'view_submission' }, (args) =>
    ackSubmission(args, bot, followUps),
  );
}

/** Typing into a type-ahead field: the options are the ack (its code loads with the first request). */
export async function ackOptions(
  { ack, body }: Pick<SlackOptionsMiddlewareArgs<'block_suggestion'>, 'ack' | 'body'>,
  bot: Bot,
): Promise<void> {
  let answer: typeof import('./options.js').ackFieldOptions | undefined;
  try {
    answer = (await import('./options.js')).ackFieldOptions;
  } catch (e) {
    bot.logger.error({ err: errText(e) }, 'type-ahead options could not be loaded');
  }
  if (!answer) return void (await ack({ options: [] }));
  await answer({ ack, body: body as BlockSuggestion }, bot);
}

export async function ackShortcut(
  { ack, shortcut }: Pick<SlackShortcutMiddlewareArgs, 'ack' | 'shortcut'>,
  followUps: Pick<FollowUps, 'run'>,
): Promise<void> {
  await ack();
  const form = SHORTCUT_KINDS.get(shortcut.callback_id);
  const teamId = shortcut.team?.id ?? shortcut.user.team_id;
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
    const teamId = body.team?.id ?? body.user.team_id;
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

import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import type { ModalKind } from '../../core/forms/fields.js';
import {
  MODAL_ACTION,
  MODAL_CALLBACK,
  REMOVE_RANGE_PATTERN,
  SHORTCUT_CALLBACK,
} from '../views/modals/ids.js';
import { errText, type ModalDeps } from './deps.js';
import type { DraftKeeper } from './drafts.js';
import type { ViewActionBody } from './interact.js';
import type { SubmissionBody } from './submit.js';

/**
 * The forms' code (views, form validation, time-range previews) is loaded on the first form event, not
 * at start-up: a bot that is never asked for a form starts faster (cold start, docs/performance.md).
 */
const forms = () =>
  Promise.all([import('./open.js'), import('./interact.js'), import('./submit.js')]).then(
    ([open, interact, submit]) => ({ ...open, ...interact, ...submit }),
  );

const CALLBACKS = new RegExp(`^(${Object.values(MODAL_CALLBACK).join('|')})$`);
const SHORTCUTS = new RegExp(`^(${Object.values(SHORTCUT_CALLBACK).join('|')})$`);
const ACTIONS = new RegExp(
  `^(${[MODAL_ACTION.range, MODAL_ACTION.addRange, MODAL_ACTION.reopen].join('|')}|${REMOVE_RANGE_PATTERN.source.slice(1, -1)})$`,
);

/**
 * The anomaly and EVAL modals: opened by `/tsai learn|relearn|score|eval` with arguments missing (the
 * command's hook, installed by `completeDeps`) and by global shortcuts; range preview, add/remove range; submission; reopen.
 */
export function register(app: App, deps: ModalDeps): void {
  let keeper: DraftKeeper | undefined;
  const drafts = async () => {
    const { DraftKeeper } = await import('./drafts.js');
    keeper ??= new DraftKeeper(deps.store, deps.now);
    return keeper;
  };

  // One listener per surface rather than one per ID: Bolt runs every listener's matching middleware for
  // every incoming request, so each extra listener costs every ack (see docs/performance.md).
  const shortcutKinds = new Map<string, ModalKind>(
    (Object.entries(SHORTCUT_CALLBACK) as [ModalKind, string][]).map(([kind, id]) => [id, kind]),
  );
  app.shortcut({ callback_id: SHORTCUTS, type: 'shortcut' }, async ({ ack, shortcut, client }) => {
    const kind = shortcutKinds.get(shortcut.callback_id);
    await ack();
    if (!kind) return;
    const { openModal } = await forms();
    const opened = await openModal(deps, {
      client,
      triggerId: shortcut.trigger_id,
      userId: shortcut.user.id,
      kind,
      fields: kind === 'learn' || kind === 'score' ? { dataMode: 'new' } : {},
      origin: 'shortcut',
    });
    if (!opened) deps.logger.warn({ user: shortcut.user.id, kind }, 'shortcut could not open its modal');
  });

  app.action<BlockAction>(ACTIONS, async ({ ack, body, action, client, respond }) => {
    await ack();
    const id = action.action_id;
    const { onRangeChange, openModal } = await forms();
    const viewBody = body as unknown as ViewActionBody;
    if (id === MODAL_ACTION.range)
      return void (await onRangeChange(deps, client, viewBody, { kind: 'preview' }));
    if (id === MODAL_ACTION.addRange)
      return void (await onRangeChange(deps, client, viewBody, { kind: 'add' }));
    const value = (action as ButtonAction).value;
    if (REMOVE_RANGE_PATTERN.test(id)) {
      const key = Number(value);
      if (Number.isInteger(key)) await onRangeChange(deps, client, viewBody, { kind: 'remove', key });
      return;
    }
    if (id !== MODAL_ACTION.reopen) return;
    const log = deps.logger.child({ user: body.user.id });
    const draft = await (await drafts()).load(value ?? '').catch((e: unknown) => {
      log.warn({ err: errText(e) }, 'could not load a modal draft');
      return undefined;
    });
    const say = (text: string) =>
      respond({ response_type: 'ephemeral', replace_original: false, text }).catch(() => undefined);
    if (!draft)
      return void (await say(
        'Those inputs are no longer available (the bot was restarted without a store). Open the form again with `/tsai learn`, `relearn`, `score` or `eval`.',
      ));
    if (draft.userId !== body.user.id) {
      log.warn({ owner: draft.userId }, 'reopen refused: the inputs belong to another user');
      return void (await say('Only the person who filled in this form can reopen it.'));
    }
    const opened = await openModal(deps, {
      client,
      triggerId: body.trigger_id,
      userId: body.user.id,
      kind: draft.kind,
      fields: draft.fields,
      origin: 'reopen',
      channel: draft.channel,
    });
    if (!opened) await say('Slack did not let the form open in time; click the button again.');
  });

  app.view({ callback_id: CALLBACKS, type: 'view_submission' }, async ({ ack, body, client }) => {
    let result: Awaited<ReturnType<typeof import('./submit.js').handleSubmission>>;
    try {
      const { handleSubmission } = await forms();
      result = await handleSubmission(deps, client, await drafts(), body as unknown as SubmissionBody);
    } catch (e) {
      deps.logger.error({ err: errText(e), user: body.user.id }, 'modal submission could not be checked');
      // Keep the modal (and everything typed) open with a message under its first input.
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
    await ack(result.ack);
    await result.after?.();
  });
}

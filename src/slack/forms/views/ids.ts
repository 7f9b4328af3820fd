import { type FormId, isFormId } from '../../../core/forms/fields.js';
import { entryOfForm, formIds, REGISTRY } from '../../../core/operations/registry/index.js';
import { MODAL_ACTION } from '../../views/form-actions.js';

const MODAL_PREFIX = 'tsai_modal_';

/** `callback_id` of a form's view: `tsai_modal_<form>`; `view_submission` listeners match on these. */
export function modalCallbackId(kind: FormId): string {
  return `${MODAL_PREFIX}${kind}`;
}

/** Every form's `callback_id` (a form registered later included). */
export const MODAL_CALLBACK_PATTERN = new RegExp(`^${MODAL_PREFIX}[a-z0-9-]+$`);

/** The `callback_id` of each form in the registry, by form. */
export const MODAL_CALLBACK: Readonly<Record<FormId, string>> = Object.fromEntries(
  formIds().map((id) => [id, modalCallbackId(id)]),
);

export function modalKindOfCallback(callbackId: string): FormId | undefined {
  if (!MODAL_CALLBACK_PATTERN.test(callbackId)) return undefined;
  const kind = callbackId.slice(MODAL_PREFIX.length);
  return isFormId(kind) ? kind : undefined;
}

const SHORTCUT_PREFIX = 'tsai_shortcut_';

/** Every form's global shortcut `callback_id` (manifest.yml declares them to Slack). */
export const SHORTCUT_CALLBACK_PATTERN = new RegExp(`^${SHORTCUT_PREFIX}[a-z0-9-]+$`);

/** The `callback_id` of a form's global shortcut: `tsai_shortcut_<form>`. */
export function shortcutCallbackId(form: string): string {
  return `${SHORTCUT_PREFIX}${form}`;
}

/** The global shortcut of each form that declares one, by form (for the manifest and the tests). */
export const SHORTCUT_CALLBACK: Readonly<Record<FormId, string>> = Object.fromEntries(
  REGISTRY.flatMap((e) => (e.form?.shortcut ? [[e.form.id, shortcutCallbackId(e.form.id)]] : [])),
);

/**
 * The form a global shortcut opens, read from the registry when it arrives, so that a form registered
 * after load (an added operation's) is opened by its shortcut too.
 */
export function formOfShortcut(callbackId: string): FormId | undefined {
  if (!SHORTCUT_CALLBACK_PATTERN.test(callbackId)) return undefined;
  const id = callbackId.slice(SHORTCUT_PREFIX.length);
  return entryOfForm(id)?.form?.shortcut && isFormId(id) ? id : undefined;
}

export { MODAL_ACTION };

/** Block id of the actions block holding "Add another range" and the remove buttons. */
export const RANGE_ACTIONS_BLOCK = 'range_actions';

/** `action_id` of the element inside a field's input block. */
export function fieldActionId(blockId: string): string {
  return `${blockId}_value`;
}

export function removeRangeActionId(key: number): string {
  return `${MODAL_ACTION.removeRange}:${key}`;
}

export const REMOVE_RANGE_PATTERN = /^tsai_modal_range_remove:\d+$/;

/**
 * `action_id`s a field's element may have (`fieldActionId`), which Slack names in its `block_suggestion`
 * requests; which fields are type-ahead ones is read from the form's entry (a form registered later too).
 */
export const FIELD_OPTIONS_PATTERN = /^[\w-]+_value$/;

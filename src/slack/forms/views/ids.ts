import { FIELD, type FormId, isResourceField } from '../../../core/forms/fields.js';
import { MODAL_ACTION } from '../../views/form-actions.js';

/** `callback_id` of each modal view; `view_submission` listeners match on these. */
export const MODAL_CALLBACK: Record<FormId, string> = {
  learn: 'tsai_modal_learn',
  relearn: 'tsai_modal_relearn',
  score: 'tsai_modal_score',
  eval: 'tsai_modal_eval',
};

export function modalKindOfCallback(callbackId: string): FormId | undefined {
  for (const [kind, id] of Object.entries(MODAL_CALLBACK)) if (id === callbackId) return kind as FormId;
  return undefined;
}

/** Global shortcuts (also declared in manifest.yml). */
export const SHORTCUT_CALLBACK = {
  learn: 'tsai_shortcut_learn',
  score: 'tsai_shortcut_score',
  eval: 'tsai_shortcut_eval',
} as const satisfies Partial<Record<FormId, string>>;

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

/** `action_id`s of the type-ahead fields, which Slack names in its `block_suggestion` requests. */
export const FIELD_OPTIONS_PATTERN = new RegExp(
  `^(${(Object.keys(FIELD) as (keyof typeof FIELD)[])
    .filter(isResourceField)
    .map((f) => fieldActionId(FIELD[f]))
    .join('|')})$`,
);

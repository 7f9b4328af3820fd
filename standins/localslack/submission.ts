import type { SlackState } from './state.js';
import type { Delivery, OpenView } from './types.js';
import { validateView } from './validate.js';
import { buildStateValues, isEmptyState, listElements, viewWithIds } from './views.js';
import { keepValues } from './webapi.js';

type Json = Record<string, unknown>;

/** Slack's client refuses to submit while a required input is empty or breaks min/max length. */
export function clientSideErrors(ov: OpenView): Record<string, string> | undefined {
  const stateValues = buildStateValues(ov.view.blocks, ov.values);
  const errors: Record<string, string> = {};
  for (const ref of listElements(ov.view.blocks)) {
    if (ref.blockType !== 'input') continue;
    const s = stateValues[ref.blockId]?.[ref.actionId];
    if (!s) continue;
    if (ref.block.optional !== true && isEmptyState(s)) errors[ref.blockId] = 'Please fill out this field.';
    const max = ref.element.max_length;
    if (typeof max === 'number' && typeof s.value === 'string' && s.value.length > max)
      errors[ref.blockId] = `Must be ${max} characters or fewer.`;
    const min = ref.element.min_length;
    if (typeof min === 'number' && typeof s.value === 'string' && s.value.length < min)
      errors[ref.blockId] = `Must be at least ${min} characters.`;
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

/**
 * Applies the bot's ack of a view_submission to the user's stack as Slack does: an empty body closes the
 * view; `errors`, `update`, `push` (stack of at most 3) and `clear` act as documented. Returns the errors
 * the user sees: by block_id, or `_` when Slack would show a generic failure (bad status or bad answer).
 */
export function applySubmissionAck(
  state: SlackState,
  stack: OpenView[],
  ov: OpenView,
  d: Delivery,
): Record<string, string> | undefined {
  if (d.status !== 200) return { _: 'We had some trouble connecting. Try again?' };
  const j = (d.json ?? {}) as Json;
  const action = d.body.trim() === '' ? 'close' : j.response_action;
  let out: Record<string, string> | undefined;
  const problems = (msg: string[]) => {
    out = { _: `the app answered with an invalid view: ${msg.join('; ')}` };
  };
  if (action === 'close') stack.pop();
  else if (action === 'clear') stack.length = 0;
  else if (action === 'errors') {
    const errors = (j.errors ?? {}) as Record<string, string>;
    const inputs = listElements(ov.view.blocks).filter((e) => e.blockType === 'input');
    const stray = Object.keys(errors).filter((k) => !inputs.some((e) => e.blockId === k));
    // Slack only shows errors on input blocks; any other key makes the whole response invalid.
    if (stray.length > 0) problems([`errors name blocks that are not input blocks: ${stray.join(', ')}`]);
    else {
      ov.errors = errors;
      out = errors;
    }
  } else if (action === 'update') {
    const bad = validateView(j.view, 'modal');
    if (bad) problems(bad.messages);
    else {
      const view = viewWithIds(j.view as Json);
      ov.values = keepValues(ov.values, view.blocks);
      ov.view = view;
      ov.hash = state.newHash();
      ov.errors = undefined;
    }
  } else if (action === 'push') {
    const bad = validateView(j.view, 'modal');
    if (bad) problems(bad.messages);
    else if (stack.length >= 3) problems(['push_limit_reached']);
    else {
      ov.errors = undefined;
      stack.push({
        id: state.newViewId(),
        hash: state.newHash(),
        user: ov.user,
        view: viewWithIds(j.view as Json),
        values: {},
        rootViewId: ov.rootViewId,
        previousViewId: ov.id,
      });
    }
  } else problems([`unknown ack body ${d.body.slice(0, 200)}`]);
  state.changed();
  return out;
}

import type { types } from '@slack/bolt';
import { LIMITS } from '../../../wire/block-kit.js';
import { shorten } from '../../views/mrkdwn.js';
import { fieldActionId } from './ids.js';

/** Text in at most `max` characters, shortened at a word boundary with a visible mark. */
export function clip(text: string, max: number): string {
  return shorten(text, max);
}

export function plain(text: string, max: number = LIMITS.text): types.PlainTextElement {
  return { type: 'plain_text', text: clip(text || ' ', max), emoji: true };
}

/** Longest text a plain_text_input accepts; also what it may be prefilled with. */
export const INPUT_MAX_LENGTH = LIMITS.inputMaxLength;

export interface TextInputSpec {
  blockId: string;
  label: string;
  hint?: string;
  placeholder?: string;
  initial?: string;
  optional: boolean;
  multiline?: boolean;
  /** Send a block_actions payload when the user presses Enter (time-range preview). */
  dispatchOnEnter?: boolean;
  actionId?: string;
}

export function textInput(s: TextInputSpec): types.InputBlock {
  const element: types.PlainTextInput = {
    type: 'plain_text_input',
    action_id: s.actionId ?? fieldActionId(s.blockId),
    max_length: INPUT_MAX_LENGTH,
  };
  if (s.multiline) element.multiline = true;
  if (s.placeholder) element.placeholder = plain(s.placeholder, LIMITS.placeholder);
  if (s.initial) element.initial_value = clip(s.initial, INPUT_MAX_LENGTH);
  if (s.dispatchOnEnter) element.dispatch_action_config = { trigger_actions_on: ['on_enter_pressed'] };
  const block = inputBlock(s, element);
  if (s.dispatchOnEnter) block.dispatch_action = true;
  return block;
}

export interface SelectOptionSpec {
  text: string;
  value: string;
}

export interface ExternalSelectSpec {
  blockId: string;
  label: string;
  hint?: string;
  placeholder: string;
  /** Several picks (`multi_external_select`) or one. */
  multi: boolean;
  initial: SelectOptionSpec[];
  optional: boolean;
}

/**
 * A type-ahead select in an input block: Slack asks the bot for options as the user types (from the first
 * character, so the channel's default and the most recent show as soon as it opens).
 */
export function externalSelectInput(s: ExternalSelectSpec): types.InputBlock {
  const options = s.initial.map(
    (o): types.PlainTextOption => ({ text: plain(o.text, LIMITS.optionText), value: o.value }),
  );
  const actionId = fieldActionId(s.blockId);
  const placeholder = plain(s.placeholder, LIMITS.placeholder);
  const element: types.ExternalSelect | types.MultiExternalSelect = s.multi
    ? {
        type: 'multi_external_select',
        action_id: actionId,
        placeholder,
        min_query_length: 0,
        ...(options.length ? { initial_options: options } : {}),
      }
    : {
        type: 'external_select',
        action_id: actionId,
        placeholder,
        min_query_length: 0,
        ...(options[0] ? { initial_option: options[0] } : {}),
      };
  return inputBlock(s, element);
}

export interface RadioSpec<V extends string> {
  blockId: string;
  label: string;
  hint?: string;
  options: { value: V; text: string; description?: string }[];
  initial?: V;
  optional: boolean;
}

export function radioInput<V extends string>(s: RadioSpec<V>): types.InputBlock {
  const options = s.options.map(
    (o): types.PlainTextOption => ({
      text: plain(o.text, LIMITS.optionText),
      value: o.value,
      ...(o.description ? { description: plain(o.description, LIMITS.optionDescription) } : {}),
    }),
  );
  const element: types.RadioButtons = { type: 'radio_buttons', action_id: fieldActionId(s.blockId), options };
  const initial = options.find((o) => o.value === s.initial);
  if (initial) element.initial_option = initial;
  return inputBlock(s, element);
}

export function section(blockId: string, mrkdwn: string): types.SectionBlock {
  return { type: 'section', block_id: blockId, text: { type: 'mrkdwn', text: clip(mrkdwn, LIMITS.text) } };
}

export function context(blockId: string, mrkdwn: string): types.ContextBlock {
  return {
    type: 'context',
    block_id: blockId,
    elements: [{ type: 'mrkdwn', text: clip(mrkdwn, LIMITS.text) }],
  };
}

export function button(
  actionId: string,
  text: string,
  value: string,
  style?: 'primary' | 'danger',
): types.Button {
  const b: types.Button = {
    type: 'button',
    action_id: actionId,
    text: plain(text, LIMITS.buttonText),
    value: clip(value, LIMITS.buttonValue),
  };
  if (style) b.style = style;
  return b;
}

/** The input block around a field's element: its label, hint and whether it may stay empty. */
function inputBlock(
  s: { blockId: string; label: string; hint?: string; optional: boolean },
  element: types.InputBlock['element'],
): types.InputBlock {
  const block: types.InputBlock = {
    type: 'input',
    block_id: s.blockId,
    label: plain(s.label, LIMITS.labelOrHint),
    optional: s.optional,
    element,
  };
  if (s.hint) block.hint = plain(s.hint, LIMITS.labelOrHint);
  return block;
}

/**
 * Slack's `view.state.values` for the stateful elements of a view or message, built from what a user typed.
 * Tests and the sandbox fill forms through this one function, so both see Slack's exact shapes.
 */
import type { SelectOption } from './types.js';

type Json = Record<string, unknown>;
export type Option = SelectOption;

export interface ElementRef {
  blockId: string;
  actionId: string;
  element: Json;
  /** The block holding it: `input`, `actions` or `section` (accessory). */
  blockType: string;
  block: Json;
}

const NON_STATE = new Set(['button', 'overflow', 'image', 'workflow_button']);

/** Every interactive element of the blocks, with the block_id Slack would report (generated when absent). */
export function listElements(blocks: unknown): ElementRef[] {
  if (!Array.isArray(blocks)) return [];
  const out: ElementRef[] = [];
  blocks.forEach((raw, i) => {
    if (!raw || typeof raw !== 'object') return;
    const block = raw as Json;
    const blockId = typeof block.block_id === 'string' ? block.block_id : `block-${i}`;
    const type = String(block.type);
    const add = (el: unknown, j: number) => {
      if (!el || typeof el !== 'object') return;
      const element = el as Json;
      const actionId = typeof element.action_id === 'string' ? element.action_id : `action-${i}-${j}`;
      out.push({ blockId, actionId, element, blockType: type, block });
    };
    if (type === 'input') add(block.element, 0);
    else if (type === 'actions' && Array.isArray(block.elements)) block.elements.forEach(add);
    else if (type === 'section' && block.accessory) add(block.accessory, 0);
  });
  return out;
}

export function findElement(blocks: unknown, actionId: string, blockId?: string): ElementRef | undefined {
  return listElements(blocks).find(
    (e) => e.actionId === actionId && (blockId === undefined || e.blockId === blockId),
  );
}

export function allOptions(element: Json): Option[] {
  const opts: Option[] = [];
  if (Array.isArray(element.options)) opts.push(...(element.options as Option[]));
  if (Array.isArray(element.option_groups)) {
    for (const g of element.option_groups as { options?: Option[] }[]) opts.push(...(g.options ?? []));
  }
  return opts;
}

function toOption(element: Json, v: unknown, external: boolean): Option {
  if (v && typeof v === 'object' && 'value' in v) return v as Option;
  const value = String(v);
  if (external) return { text: { type: 'plain_text', text: value }, value };
  const found = allOptions(element).find((o) => o.value === value);
  if (!found) {
    const known = allOptions(element)
      .map((o) => o.value)
      .join(', ');
    throw new Error(`option "${value}" is not one of the element's options (${known})`);
  }
  return { text: found.text, value: found.value };
}

const isSet = (v: unknown) => v !== undefined;

/**
 * Slack's state value of one element. `typed` is what the user entered:
 * plain text / number / email / url inputs: a string; selects and radio buttons: an option value or option;
 * multi selects and checkboxes: an array of those; datepicker: 'YYYY-MM-DD'; timepicker: 'HH:mm';
 * datetimepicker: UNIX seconds; users/conversations/channels selects: an ID (or array for multi).
 * `undefined` means untouched: the element's initial value applies.
 */
export function elementState(element: Json, typed: unknown): Json {
  const type = String(element.type);
  const pick = (initialKey: string) => (isSet(typed) ? typed : element[initialKey]);
  switch (type) {
    case 'plain_text_input':
    case 'email_text_input':
    case 'url_text_input':
    case 'number_input': {
      const v = pick('initial_value');
      return { type, value: v === undefined || v === '' ? null : String(v) };
    }
    case 'static_select':
    case 'external_select':
    case 'radio_buttons': {
      const v = isSet(typed) ? typed : element.initial_option;
      return {
        type,
        selected_option:
          v === undefined || v === null ? null : toOption(element, v, type === 'external_select'),
      };
    }
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes': {
      const v = isSet(typed) ? typed : element.initial_options;
      const list = v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
      return {
        type,
        selected_options: list.map((o) => toOption(element, o, type === 'multi_external_select')),
      };
    }
    case 'datepicker':
      return { type, selected_date: pick('initial_date') ?? null };
    case 'timepicker': {
      const out: Json = { type, selected_time: pick('initial_time') ?? null };
      if (typeof element.timezone === 'string') out.timezone = element.timezone;
      return out;
    }
    case 'datetimepicker': {
      const v = pick('initial_date_time');
      return { type, selected_date_time: v === undefined || v === null ? null : Number(v) };
    }
    case 'users_select':
      return { type, selected_user: pick('initial_user') ?? null };
    case 'multi_users_select':
      return { type, selected_users: pick('initial_users') ?? [] };
    case 'conversations_select':
      return { type, selected_conversation: pick('initial_conversation') ?? null };
    case 'multi_conversations_select':
      return { type, selected_conversations: pick('initial_conversations') ?? [] };
    case 'channels_select':
      return { type, selected_channel: pick('initial_channel') ?? null };
    case 'multi_channels_select':
      return { type, selected_channels: pick('initial_channels') ?? [] };
    default:
      return { type, value: isSet(typed) ? typed : null };
  }
}

/** `state.values[block_id][action_id]` for every stateful element of `blocks`, as Slack sends it. */
export function buildStateValues(
  blocks: unknown,
  typed: Record<string, Record<string, unknown>> = {},
): Record<string, Record<string, Json>> {
  const values: Record<string, Record<string, Json>> = {};
  for (const ref of listElements(blocks)) {
    if (NON_STATE.has(String(ref.element.type))) continue;
    const v = typed[ref.blockId]?.[ref.actionId];
    values[ref.blockId] ??= {};
    values[ref.blockId]![ref.actionId] = elementState(ref.element, v);
  }
  return values;
}

/** Whether a state value is empty, the way Slack's client judges a required input. */
export function isEmptyState(s: Json): boolean {
  for (const [k, v] of Object.entries(s)) {
    if (k === 'type' || k === 'timezone') continue;
    if (v === null || v === undefined || v === '') return true;
    if (Array.isArray(v) && v.length === 0) return true;
  }
  return false;
}

/** The `actions[]` entry Slack sends for a block_actions interaction with this element. */
export function actionPayload(ref: ElementRef, typed: unknown, actionTs: string): Json {
  const { element } = ref;
  const base: Json = {
    type: element.type,
    action_id: ref.actionId,
    block_id: ref.blockId,
    action_ts: actionTs,
  };
  const type = String(element.type);
  if (type === 'button') {
    return {
      ...base,
      text: element.text,
      value: element.value,
      ...(element.style ? { style: element.style } : {}),
    };
  }
  if (type === 'overflow') {
    return { ...base, selected_option: toOption(element, typed, false) };
  }
  const state = elementState(element, typed);
  const { type: _t, ...rest } = state;
  if (type === 'static_select' || type === 'external_select') {
    const placeholder = element.placeholder;
    return { ...base, ...rest, ...(placeholder ? { placeholder } : {}) };
  }
  if (type === 'checkboxes' || type.startsWith('multi_')) {
    return { ...base, ...rest };
  }
  return { ...base, ...rest };
}

const randomId = () => Math.random().toString(36).slice(2, 6) || 'x0';

/**
 * Slack stores blocks with a `block_id` (and interactive elements with an `action_id`) even when the app
 * sent none, and reports those generated IDs in payloads and API answers. Returns copies; the input is untouched.
 */
export function assignIds(blocks: unknown): unknown[] | undefined {
  if (!Array.isArray(blocks)) return undefined;
  const withAction = (el: unknown) =>
    el && typeof el === 'object' && !('action_id' in el) && (el as Json).type !== 'image'
      ? { ...(el as Json), action_id: randomId() }
      : el;
  return blocks.map((raw) => {
    if (!raw || typeof raw !== 'object') return raw;
    const b: Json = { ...(raw as Json) };
    if (typeof b.block_id !== 'string') b.block_id = randomId();
    if (b.type === 'input' && b.element) b.element = withAction(b.element);
    if (b.type === 'actions' && Array.isArray(b.elements)) b.elements = b.elements.map(withAction);
    if (b.type === 'section' && b.accessory) b.accessory = withAction(b.accessory);
    return b;
  });
}

/** A view with Slack's generated block and action IDs. */
export function viewWithIds(view: Json): Json {
  return { ...view, blocks: assignIds(view.blocks) ?? [] };
}

/**
 * Slack's Block Kit limits (Slack's docs and the @slack/types doc comments): the one table the bot's
 * builders and the local Slack stand-in both go by, as `wire/` holds the service API's schemas.
 * `checkBlockKitLimits` walks a view or a message and lists every violation with its path, so tests can
 * assert that builders stay within limits for worst-case inputs, and callers can check before posting.
 */
export const LIMITS = {
  blocksPerModal: 100,
  blocksPerMessage: 50,
  text: 3000,
  sectionFields: 10,
  sectionFieldText: 2000,
  headerText: 150,
  labelOrHint: 2000,
  actionsElements: 25,
  contextElements: 10,
  selectOptions: 100,
  radioOrCheckboxOptions: 10,
  overflowOptions: 5,
  optionText: 75,
  optionValue: 75,
  optionDescription: 75,
  buttonText: 75,
  buttonValue: 2000,
  buttonUrl: 3000,
  placeholder: 150,
  viewTitle: 24,
  viewButton: 24,
  privateMetadata: 3000,
  callbackId: 255,
  blockId: 255,
  actionId: 255,
  inputMaxLength: 3000,
  markdownBlock: 12000,
  /**
   * `chat.update` answers `msg_too_long` above this many characters of `text` (a posted message keeps up to
   * 40,000); the bot keeps every message within it so that any message it posts can later be updated.
   */
  messageText: 4000,
} as const;

export type Surface = 'modal' | 'home' | 'message';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Records one violation at a path. */
type Report = (path: string, what: string) => void;

export function checkBlockKitLimits(payload: unknown, surface: Surface): string[] {
  const problems: string[] = [];
  const err: Report = (path, what) => {
    problems.push(`${path}: ${what}`);
  };
  if (!isObj(payload)) return ['payload: not an object'];

  if (surface !== 'message') {
    plainOnly(err, 'title', payload.title, LIMITS.viewTitle);
    if (surface === 'modal' && payload.title === undefined) err('title', 'missing');
    plainOnly(err, 'submit', payload.submit, LIMITS.viewButton);
    plainOnly(err, 'close', payload.close, LIMITS.viewButton);
    maxLen(err, 'private_metadata', payload.private_metadata, LIMITS.privateMetadata, 'private_metadata');
    maxLen(err, 'callback_id', payload.callback_id, LIMITS.callbackId, 'callback_id');
  }

  const blocks = payload.blocks;
  if (blocks === undefined) return problems;
  if (!Array.isArray(blocks)) return [...problems, 'blocks: not an array'];
  const maxBlocks = surface === 'message' ? LIMITS.blocksPerMessage : LIMITS.blocksPerModal;
  if (blocks.length > maxBlocks) err('blocks', `${blocks.length} blocks (max ${maxBlocks})`);

  const blockIds = new Set<string>();
  for (const [i, b] of (blocks as unknown[]).entries()) {
    const path = `blocks[${i}]`;
    if (!isObj(b)) {
      err(path, 'not a block');
      continue;
    }
    if (typeof b.block_id === 'string') {
      maxLen(err, `${path}.block_id`, b.block_id, LIMITS.blockId, 'block_id');
      if (blockIds.has(b.block_id)) err(`${path}.block_id`, `duplicate block_id "${b.block_id}"`);
      blockIds.add(b.block_id);
    }
    checkBlock(err, path, b, surface);
  }
  return problems;
}

function maxLen(err: Report, path: string, v: unknown, max: number, what = 'text'): void {
  if (typeof v === 'string' && v.length > max) err(path, `${what} is ${v.length} chars (max ${max})`);
}

function textObj(err: Report, path: string, t: unknown, max: number = LIMITS.text): void {
  if (t === undefined) return;
  if (!isObj(t) || (t.type !== 'plain_text' && t.type !== 'mrkdwn') || typeof t.text !== 'string') {
    err(path, 'not a text object');
    return;
  }
  if (t.text.length === 0) err(path, 'text is empty (min 1)');
  maxLen(err, path, t.text, Math.min(max, LIMITS.text));
}

function plainOnly(err: Report, path: string, t: unknown, max: number): void {
  if (t === undefined) return;
  if (isObj(t) && t.type !== 'plain_text') err(path, 'must be plain_text');
  textObj(err, path, t, max);
}

function option(err: Report, path: string, o: unknown) {
  if (!isObj(o)) return err(path, 'not an option');
  textObj(err, `${path}.text`, o.text, LIMITS.optionText);
  maxLen(err, `${path}.value`, o.value, LIMITS.optionValue, 'value');
  textObj(err, `${path}.description`, o.description, LIMITS.optionDescription);
}

function options(err: Report, path: string, list: unknown, max: number) {
  if (list === undefined) return;
  if (!Array.isArray(list)) return err(path, 'not an array');
  if (list.length > max) err(path, `${list.length} options (max ${max})`);
  for (const [i, o] of list.entries()) option(err, `${path}[${i}]`, o);
}

/** One block's own limits, by its type; `blocks[i]` is its path. */
function checkBlock(err: Report, path: string, b: Json, surface: Surface): void {
  const actionIds = new Set<string>();
  switch (b.type) {
    case 'section':
      textObj(err, `${path}.text`, b.text);
      if (b.text === undefined && b.fields === undefined) err(path, 'section needs text or fields');
      if (Array.isArray(b.fields)) {
        if (b.fields.length > LIMITS.sectionFields)
          err(`${path}.fields`, `${b.fields.length} fields (max 10)`);
        for (const [j, f] of b.fields.entries())
          textObj(err, `${path}.fields[${j}]`, f, LIMITS.sectionFieldText);
      }
      if (b.accessory !== undefined) element(err, `${path}.accessory`, b.accessory, actionIds);
      break;
    case 'header':
      plainOnly(err, `${path}.text`, b.text, LIMITS.headerText);
      break;
    case 'input':
      if (surface === 'message') err(path, 'input blocks are not allowed in messages here');
      plainOnly(err, `${path}.label`, b.label, LIMITS.labelOrHint);
      plainOnly(err, `${path}.hint`, b.hint, LIMITS.labelOrHint);
      element(err, `${path}.element`, b.element, actionIds);
      break;
    case 'actions':
      if (!elementList(err, path, b.elements, LIMITS.actionsElements)) break;
      for (const [j, e] of b.elements.entries()) element(err, `${path}.elements[${j}]`, e, actionIds);
      break;
    case 'context':
      if (!elementList(err, path, b.elements, LIMITS.contextElements)) break;
      for (const [j, e] of b.elements.entries()) {
        if (isObj(e) && e.type !== 'image') textObj(err, `${path}.elements[${j}]`, e);
      }
      break;
    case 'markdown':
      maxLen(err, `${path}.text`, b.text, LIMITS.markdownBlock);
      break;
  }
}

/** Whether a block's `elements` is a list (its length checked against `max`). */
function elementList(err: Report, path: string, elements: unknown, max: number): elements is unknown[] {
  if (!Array.isArray(elements)) {
    err(`${path}.elements`, 'not an array');
    return false;
  }
  if (elements.length > max) err(`${path}.elements`, `${elements.length} elements (max ${max})`);
  return true;
}

/** One element's limits; an action_id already in `actionIds` (the same block) is a duplicate. */
function element(err: Report, path: string, e: unknown, actionIds: Set<string>) {
  if (!isObj(e)) return err(path, 'not an element');
  if (typeof e.action_id === 'string') {
    maxLen(err, `${path}.action_id`, e.action_id, LIMITS.actionId, 'action_id');
    if (actionIds.has(e.action_id)) err(`${path}.action_id`, `duplicate action_id "${e.action_id}" in block`);
    actionIds.add(e.action_id);
  }
  plainOnly(err, `${path}.placeholder`, e.placeholder, LIMITS.placeholder);
  switch (e.type) {
    case 'button':
      plainOnly(err, `${path}.text`, e.text, LIMITS.buttonText);
      maxLen(err, `${path}.value`, e.value, LIMITS.buttonValue, 'value');
      maxLen(err, `${path}.url`, e.url, LIMITS.buttonUrl, 'url');
      break;
    case 'static_select':
    case 'multi_static_select':
      options(err, `${path}.options`, e.options, LIMITS.selectOptions);
      options(err, `${path}.option_groups`, e.option_groups, LIMITS.selectOptions);
      break;
    case 'radio_buttons':
    case 'checkboxes':
      options(err, `${path}.options`, e.options, LIMITS.radioOrCheckboxOptions);
      break;
    case 'overflow':
      options(err, `${path}.options`, e.options, LIMITS.overflowOptions);
      break;
    case 'plain_text_input':
      if (typeof e.max_length === 'number' && e.max_length > LIMITS.inputMaxLength) {
        err(`${path}.max_length`, `${e.max_length} (max ${LIMITS.inputMaxLength})`);
      }
      maxLen(err, `${path}.initial_value`, e.initial_value, LIMITS.inputMaxLength, 'initial_value');
      break;
  }
  if (e.initial_option !== undefined) option(err, `${path}.initial_option`, e.initial_option);
  if (Array.isArray(e.initial_options)) {
    for (const [i, o] of e.initial_options.entries()) option(err, `${path}.initial_options[${i}]`, o);
  }
}

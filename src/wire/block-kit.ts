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

export function checkBlockKitLimits(payload: unknown, surface: Surface): string[] {
  const problems: string[] = [];
  const err = (path: string, what: string): void => {
    problems.push(`${path}: ${what}`);
  };
  if (!isObj(payload)) return ['payload: not an object'];

  const maxLen = (path: string, v: unknown, max: number, what = 'text') => {
    if (typeof v === 'string' && v.length > max) err(path, `${what} is ${v.length} chars (max ${max})`);
  };
  const textObj = (path: string, t: unknown, max: number = LIMITS.text) => {
    if (t === undefined) return;
    if (!isObj(t) || (t.type !== 'plain_text' && t.type !== 'mrkdwn') || typeof t.text !== 'string') {
      err(path, 'not a text object');
      return;
    }
    if (t.text.length === 0) err(path, 'text is empty (min 1)');
    maxLen(path, t.text, Math.min(max, LIMITS.text));
  };
  const plainOnly = (path: string, t: unknown, max: number) => {
    if (t === undefined) return;
    if (isObj(t) && t.type !== 'plain_text') err(path, 'must be plain_text');
    textObj(path, t, max);
  };

  if (surface !== 'message') {
    plainOnly('title', payload.title, LIMITS.viewTitle);
    if (surface === 'modal' && payload.title === undefined) err('title', 'missing');
    plainOnly('submit', payload.submit, LIMITS.viewButton);
    plainOnly('close', payload.close, LIMITS.viewButton);
    maxLen('private_metadata', payload.private_metadata, LIMITS.privateMetadata, 'private_metadata');
    maxLen('callback_id', payload.callback_id, LIMITS.callbackId, 'callback_id');
  }

  const blocks = payload.blocks;
  if (blocks === undefined) return problems;
  if (!Array.isArray(blocks)) return [...problems, 'blocks: not an array'];
  const maxBlocks = surface === 'message' ? LIMITS.blocksPerMessage : LIMITS.blocksPerModal;
  if (blocks.length > maxBlocks) err('blocks', `${blocks.length} blocks (max ${maxBlocks})`);

  const option = (path: string, o: unknown) => {
    if (!isObj(o)) return err(path, 'not an option');
    textObj(`${path}.text`, o.text, LIMITS.optionText);
    maxLen(`${path}.value`, o.value, LIMITS.optionValue, 'value');
    textObj(`${path}.description`, o.description, LIMITS.optionDescription);
  };
  const options = (path: string, list: unknown, max: number) => {
    if (list === undefined) return;
    if (!Array.isArray(list)) return err(path, 'not an array');
    if (list.length > max) err(path, `${list.length} options (max ${max})`);
    for (const [i, o] of list.entries()) option(`${path}[${i}]`, o);
  };

  const element = (path: string, e: unknown, actionIds: Set<string>) => {
    if (!isObj(e)) return err(path, 'not an element');
    if (typeof e.action_id === 'string') {
      maxLen(`${path}.action_id`, e.action_id, LIMITS.actionId, 'action_id');
      if (actionIds.has(e.action_id))
        err(`${path}.action_id`, `duplicate action_id "${e.action_id}" in block`);
      actionIds.add(e.action_id);
    }
    plainOnly(`${path}.placeholder`, e.placeholder, LIMITS.placeholder);
    switch (e.type) {
      case 'button':
        plainOnly(`${path}.text`, e.text, LIMITS.buttonText);
        maxLen(`${path}.value`, e.value, LIMITS.buttonValue, 'value');
        maxLen(`${path}.url`, e.url, LIMITS.buttonUrl, 'url');
        break;
      case 'static_select':
      case 'multi_static_select':
        options(`${path}.options`, e.options, LIMITS.selectOptions);
        options(`${path}.option_groups`, e.option_groups, LIMITS.selectOptions);
        break;
      case 'radio_buttons':
      case 'checkboxes':
        options(`${path}.options`, e.options, LIMITS.radioOrCheckboxOptions);
        break;
      case 'overflow':
        options(`${path}.options`, e.options, LIMITS.overflowOptions);
        break;
      case 'plain_text_input':
        if (typeof e.max_length === 'number' && e.max_length > LIMITS.inputMaxLength) {
          err(`${path}.max_length`, `${e.max_length} (max ${LIMITS.inputMaxLength})`);
        }
        maxLen(`${path}.initial_value`, e.initial_value, LIMITS.inputMaxLength, 'initial_value');
        break;
    }
    if (e.initial_option !== undefined) option(`${path}.initial_option`, e.initial_option);
    if (Array.isArray(e.initial_options)) {
      for (const [i, o] of e.initial_options.entries()) option(`${path}.initial_options[${i}]`, o);
    }
  };

  const blockIds = new Set<string>();
  for (const [i, b] of (blocks as unknown[]).entries()) {
    const path = `blocks[${i}]`;
    if (!isObj(b)) {
      err(path, 'not a block');
      continue;
    }
    if (typeof b.block_id === 'string') {
      maxLen(`${path}.block_id`, b.block_id, LIMITS.blockId, 'block_id');
      if (blockIds.has(b.block_id)) err(`${path}.block_id`, `duplicate block_id "${b.block_id}"`);
      blockIds.add(b.block_id);
    }
    const actionIds = new Set<string>();
    switch (b.type) {
      case 'section':
        textObj(`${path}.text`, b.text);
        if (b.text === undefined && b.fields === undefined) err(path, 'section needs text or fields');
        if (Array.isArray(b.fields)) {
          if (b.fields.length > LIMITS.sectionFields)
            err(`${path}.fields`, `${b.fields.length} fields (max 10)`);
          for (const [j, f] of b.fields.entries())
            textObj(`${path}.fields[${j}]`, f, LIMITS.sectionFieldText);
        }
        if (b.accessory !== undefined) element(`${path}.accessory`, b.accessory, actionIds);
        break;
      case 'header':
        plainOnly(`${path}.text`, b.text, LIMITS.headerText);
        break;
      case 'input':
        if (surface === 'message') err(path, 'input blocks are not allowed in messages here');
        plainOnly(`${path}.label`, b.label, LIMITS.labelOrHint);
        plainOnly(`${path}.hint`, b.hint, LIMITS.labelOrHint);
        element(`${path}.element`, b.element, actionIds);
        break;
      case 'actions':
        if (!Array.isArray(b.elements)) {
          err(`${path}.elements`, 'not an array');
          break;
        }
        if (b.elements.length > LIMITS.actionsElements) {
          err(`${path}.elements`, `${b.elements.length} elements (max ${LIMITS.actionsElements})`);
        }
        for (const [j, e] of b.elements.entries()) element(`${path}.elements[${j}]`, e, actionIds);
        break;
      case 'context':
        if (!Array.isArray(b.elements)) {
          err(`${path}.elements`, 'not an array');
          break;
        }
        if (b.elements.length > LIMITS.contextElements) {
          err(`${path}.elements`, `${b.elements.length} elements (max ${LIMITS.contextElements})`);
        }
        for (const [j, e] of b.elements.entries()) {
          if (isObj(e) && e.type !== 'image') textObj(`${path}.elements[${j}]`, e);
        }
        break;
      case 'markdown':
        maxLen(`${path}.text`, b.text, LIMITS.markdownBlock);
        break;
    }
  }
  return problems;
}

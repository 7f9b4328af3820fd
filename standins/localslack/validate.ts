import { LIMITS as L } from '../../src/wire/block-kit.js';

/**
 * The subset of Slack's server-side Block Kit and view checks that catches real bot bugs, by the one table of
 * Block Kit limits the bot's builders go by.
 * Returns Slack's error code plus human messages like Slack's `response_metadata.messages`, or null when valid.
 */
type Json = Record<string, unknown>;
export interface Invalid {
  error: string;
  messages: string[];
}

const textOf = (t: unknown): string | undefined =>
  t && typeof t === 'object' && typeof (t as Json).text === 'string'
    ? ((t as Json).text as string)
    : undefined;

function checkBlocks(blocks: unknown[], max: number, where: string): string[] {
  const problems: string[] = [];
  if (blocks.length > max) problems.push(`${where}: ${blocks.length} blocks, more than ${max}`);
  const ids = new Set<string>();
  blocks.forEach((raw, i) => {
    const at = `${where}/blocks/${i}`;
    if (!raw || typeof raw !== 'object' || typeof (raw as Json).type !== 'string') {
      problems.push(`${at}: a block must be an object with a type`);
      return;
    }
    const b = raw as Json;
    if (typeof b.block_id === 'string') {
      if (b.block_id.length > L.blockId) problems.push(`${at}: block_id longer than ${L.blockId}`);
      if (ids.has(b.block_id)) problems.push(`${at}: duplicate block_id "${b.block_id}"`);
      ids.add(b.block_id);
    }
    const text = textOf(b.text);
    if (b.type === 'section') {
      if (text === undefined && !Array.isArray(b.fields))
        problems.push(`${at}: section needs text or fields`);
      if (text !== undefined && (text.length === 0 || text.length > L.text))
        problems.push(`${at}: section text must be 1-${L.text} chars (got ${text.length})`);
      if (Array.isArray(b.fields)) {
        if (b.fields.length > L.sectionFields) problems.push(`${at}: more than ${L.sectionFields} fields`);
        b.fields.forEach((f, j) => {
          const ft = textOf(f) ?? '';
          if (ft.length === 0 || ft.length > L.sectionFieldText)
            problems.push(`${at}/fields/${j}: must be 1-${L.sectionFieldText} chars`);
        });
      }
    } else if (b.type === 'header') {
      if (text === undefined || text.length > L.headerText)
        problems.push(`${at}: header text must be 1-${L.headerText} chars`);
    } else if (b.type === 'actions') {
      if (!Array.isArray(b.elements) || b.elements.length === 0 || b.elements.length > L.actionsElements)
        problems.push(`${at}: actions need 1-${L.actionsElements} elements`);
    } else if (b.type === 'context') {
      if (!Array.isArray(b.elements) || b.elements.length === 0 || b.elements.length > L.contextElements)
        problems.push(`${at}: context needs 1-${L.contextElements} elements`);
    } else if (b.type === 'input') {
      if (!b.element || typeof b.element !== 'object') problems.push(`${at}: input needs an element`);
      const label = textOf(b.label);
      if (label === undefined || label.length > L.labelOrHint)
        problems.push(`${at}: input label must be 1-${L.labelOrHint} chars`);
    }
    for (const el of elementsOf(b)) {
      if (typeof el.action_id === 'string' && el.action_id.length > L.actionId)
        problems.push(`${at}: action_id longer than ${L.actionId}`);
      problems.push(...optionProblems(el, at));
      if (el.type === 'external_select' || el.type === 'multi_external_select')
        problems.push(...externalSelectProblems(el, at));
      if (el.type === 'button') {
        const bt = textOf(el.text) ?? '';
        if (bt.length === 0 || bt.length > L.buttonText)
          problems.push(`${at}: button text must be 1-${L.buttonText} chars`);
        if (typeof el.value === 'string' && el.value.length > L.buttonValue)
          problems.push(`${at}: button value > ${L.buttonValue}`);
      }
    }
  });
  return problems;
}

const SELECTS = new Set([
  'static_select',
  'multi_static_select',
  'external_select',
  'multi_external_select',
  'overflow',
]);

/**
 * Slack's server takes an option value up to 150 characters (its documented figure); the bot's builders keep
 * to the stricter 75 of @slack/types (`LIMITS.optionValue`), so a value between the two passes here.
 */
const SERVER_OPTION_VALUE_MAX = 150;

/** Option limits: per list or per group list, on text, value and description. */
function checkOptions(options: unknown[], at: string, plainOnly: boolean): string[] {
  const problems: string[] = [];
  if (options.length > L.selectOptions) problems.push(`${at}: more than ${L.selectOptions} options`);
  options.forEach((raw, i) => {
    const o = (raw ?? {}) as Json;
    if (typeof o.value !== 'string' || o.value.length === 0 || o.value.length > SERVER_OPTION_VALUE_MAX)
      problems.push(`${at}/options/${i}: value must be 1-${SERVER_OPTION_VALUE_MAX} chars`);
    const ot = textOf(o.text);
    if (ot === undefined || ot.length === 0 || ot.length > L.optionText)
      problems.push(`${at}/options/${i}: text must be 1-${L.optionText} chars`);
    if (plainOnly && (o.text as Json | undefined)?.type !== 'plain_text')
      problems.push(`${at}/options/${i}: a select menu's option text must be plain_text`);
    const d = textOf(o.description);
    if (d !== undefined && d.length > L.optionDescription)
      problems.push(`${at}/options/${i}: description longer than ${L.optionDescription}`);
  });
  return problems;
}

function optionProblems(el: Json, at: string): string[] {
  const plainOnly = SELECTS.has(String(el.type));
  const problems: string[] = [];
  if (Array.isArray(el.options)) problems.push(...checkOptions(el.options, at, plainOnly));
  if (Array.isArray(el.option_groups)) {
    if (el.option_groups.length > L.selectOptions)
      problems.push(`${at}: more than ${L.selectOptions} option groups`);
    for (const g of el.option_groups as Json[]) {
      const label = textOf(g?.label);
      if (label === undefined || label.length === 0 || label.length > L.optionText)
        problems.push(`${at}: option group label must be 1-${L.optionText} chars`);
      problems.push(...checkOptions(Array.isArray(g?.options) ? g.options : [], at, plainOnly));
    }
  }
  const initial = [
    ...(el.initial_option !== undefined ? [el.initial_option] : []),
    ...(Array.isArray(el.initial_options) ? el.initial_options : []),
  ];
  if (initial.length > 0) problems.push(...checkOptions(initial, `${at}/initial`, plainOnly));
  return problems;
}

/** The app serves these options itself (block_suggestion); Slack refuses a static list on them. */
function externalSelectProblems(el: Json, at: string): string[] {
  const problems: string[] = [];
  if (el.options !== undefined || el.option_groups !== undefined)
    problems.push(
      `${at}: ${String(el.type)} takes no options or option_groups (the app answers block_suggestion)`,
    );
  const mql = el.min_query_length;
  if (mql !== undefined && !(Number.isInteger(mql) && (mql as number) >= 0))
    problems.push(`${at}: min_query_length must be a whole number, 0 or more`);
  if (el.type === 'external_select' && el.initial_options !== undefined)
    problems.push(`${at}: external_select takes initial_option, not initial_options`);
  if (el.type === 'multi_external_select') {
    if (el.initial_option !== undefined)
      problems.push(`${at}: multi_external_select takes initial_options, not initial_option`);
    const max = el.max_selected_items;
    if (max !== undefined && !(Number.isInteger(max) && (max as number) >= 1))
      problems.push(`${at}: max_selected_items must be at least 1`);
  }
  return problems;
}

/**
 * The app's answer to a block_suggestion: `{options}` or `{option_groups}` within Slack's option limits.
 * Returns what is wrong, or an empty list.
 */
export function optionsResponseProblems(body: unknown): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return ['the answer must be a JSON object with options or option_groups'];
  const b = body as Json;
  if (b.options !== undefined && b.option_groups !== undefined)
    return ['give options or option_groups, not both'];
  if (b.options === undefined && b.option_groups === undefined)
    return ['the answer has neither options nor option_groups'];
  if (b.options !== undefined && !Array.isArray(b.options)) return ['options must be an array'];
  if (b.option_groups !== undefined && !Array.isArray(b.option_groups))
    return ['option_groups must be an array'];
  return optionProblems(b, 'options');
}

function elementsOf(b: Json): Json[] {
  const out: unknown[] = [];
  if (Array.isArray(b.elements)) out.push(...b.elements);
  if (b.element) out.push(b.element);
  if (b.accessory) out.push(b.accessory);
  return out.filter((e): e is Json => !!e && typeof e === 'object');
}

/** Characters Slack keeps of a posted message's text; chat.update refuses more than `UPDATE_TEXT_MAX`. */
export const POST_TEXT_MAX = 40_000;
export const UPDATE_TEXT_MAX = L.messageText;
/** views.* refuse views whose JSON is larger than this (`view_too_large`). */
export const VIEW_BYTES_MAX = 250_000;

/** chat.postMessage / chat.update / chat.postEphemeral / response_url bodies. */
export function validateMessage(text: unknown, blocks: unknown, maxText = POST_TEXT_MAX): Invalid | null {
  const hasText = typeof text === 'string' && text.length > 0;
  if (blocks !== undefined && !Array.isArray(blocks))
    return { error: 'invalid_blocks_format', messages: ['blocks must be a JSON array'] };
  const list = (blocks as unknown[] | undefined) ?? [];
  if (!hasText && list.length === 0) return { error: 'no_text', messages: ['neither text nor blocks given'] };
  if (typeof text === 'string' && [...text].length > maxText)
    return { error: 'msg_too_long', messages: [`text longer than ${maxText} characters`] };
  const problems = checkBlocks(list, L.blocksPerMessage, 'message');
  return problems.length ? { error: 'invalid_blocks', messages: problems } : null;
}

/** views.open / update / push / publish and response_action views. */
export function validateView(view: unknown, expectType?: 'modal' | 'home'): Invalid | null {
  if (!view || typeof view !== 'object')
    return { error: 'invalid_arguments', messages: ['view is required'] };
  const v = view as Json;
  const bytes = Buffer.byteLength(JSON.stringify(v));
  if (bytes > VIEW_BYTES_MAX)
    return { error: 'view_too_large', messages: [`the view is ${bytes} bytes, more than ${VIEW_BYTES_MAX}`] };
  const problems: string[] = [];
  if (v.type !== 'modal' && v.type !== 'home') problems.push('view.type must be modal or home');
  if (expectType && v.type !== expectType) problems.push(`view.type must be ${expectType}`);
  if (!Array.isArray(v.blocks)) problems.push('view.blocks must be an array');
  if (v.type === 'modal') {
    const title = textOf(v.title);
    if (title === undefined || title.length === 0 || title.length > L.viewTitle)
      problems.push(`title must be 1-${L.viewTitle} chars`);
    for (const k of ['submit', 'close'] as const) {
      const t = textOf(v[k]);
      if (v[k] !== undefined && (t === undefined || t.length > L.viewButton))
        problems.push(`${k} must be 1-${L.viewButton} chars`);
    }
    const hasInput = Array.isArray(v.blocks) && v.blocks.some((b) => (b as Json)?.type === 'input');
    if (hasInput && v.submit === undefined)
      problems.push('submit is required when the view has input blocks');
  }
  if (typeof v.private_metadata === 'string' && v.private_metadata.length > L.privateMetadata)
    problems.push(`private_metadata longer than ${L.privateMetadata}`);
  if (typeof v.callback_id === 'string' && v.callback_id.length > L.callbackId)
    problems.push(`callback_id longer than ${L.callbackId}`);
  if (typeof v.external_id === 'string' && v.external_id.length > L.callbackId)
    problems.push(`external_id longer than ${L.callbackId}`);
  if (problems.length) return { error: 'invalid_arguments', messages: problems };
  const blockProblems = checkBlocks(v.blocks as unknown[], L.blocksPerModal, 'view');
  return blockProblems.length ? { error: 'invalid_blocks', messages: blockProblems } : null;
}

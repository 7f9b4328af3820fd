import type { types } from '@slack/bolt';
import { CHOICES, type ChoiceName } from '../../../core/forms/choices.js';
import {
  blockIdOf,
  type ModalFields,
  maxRangesOf,
  type RangePreview,
  rangeBlockId,
  textIn,
} from '../../../core/forms/fields.js';
import { heldOption } from '../../../core/forms/options.js';
import { REPEAT_EXAMPLE } from '../../../core/forms/repeat.js';
import { DEFAULT_NAME_PLACEHOLDER } from '../../../core/operations/registry/arguments.js';
import { type Argument, fieldNameOf } from '../../../core/operations/registry/entry.js';
import { entryOfForm } from '../../../core/operations/registry/index.js';
import { LIMITS } from '../../../wire/block-kit.js';
import { escapeMrkdwn } from '../../views/mrkdwn.js';
import {
  button,
  clip,
  context,
  externalSelectInput,
  plain,
  radioInput,
  type SelectOptionSpec,
  section,
  textInput,
} from './elements.js';
import {
  fieldActionId,
  MODAL_ACTION,
  modalCallbackId,
  RANGE_ACTIONS_BLOCK,
  removeRangeActionId,
} from './ids.js';
import { encodeMeta, type ModalMeta } from './metadata.js';

export interface ModalViewInput {
  meta: ModalMeta;
  /** Initial values; `fields.ranges[i]` belongs to the range input with key `meta.ranges[i]`. */
  fields: ModalFields;
  /** Per range block id. */
  previews?: Record<string, RangePreview>;
  /** The flow name used when the name field is left empty (shown as placeholder). */
  defaultName?: string;
  /** The user's IANA zone, named in the time-range hint. */
  timeZone?: string;
  /** Extra lines shown at the top, e.g. the result of a slow lookup. */
  notes?: string[];
  /** Names the catalog knows for the IDs the form holds, shown in their options. */
  names?: Readonly<Record<string, string>>;
}

const RANGE_HINT_EXAMPLES = 'e.g. yesterday 9am to 5pm · Nov 1 to Nov 3 · last 3 days';

/**
 * Builds an operation's form: its notes, then each item its registry entry lists, in order, each
 * argument's field as the argument declares it. Pure: same input, same view.
 */
export function buildModalView(input: ModalViewInput): types.ModalView {
  const { meta } = input;
  const entry = entryOfForm(meta.kind);
  const form = entry?.form;
  if (!entry || !form) throw new Error(`no operation has the form ${meta.kind}`);
  const blocks: types.KnownBlock[] = [];

  for (const note of input.notes ?? []) blocks.push(context(`note_${blocks.length}`, note));
  if (meta.defaults?.length) {
    // The channel-default fields are named like what they hold: workspace, model, assessment, ...
    const names = meta.defaults.join(', ');
    blocks.push(
      context('defaults_note', `Prefilled from this channel's defaults (\`/tsai use\`): ${names}.`),
    );
  }
  // The entry's notes are text for a person (with *bold* and :emoji: as written): escaped like all of it.
  for (const note of form.notes ?? []) blocks.push(section(note.id, escapeMrkdwn(note.text)));
  if (!meta.channel) blocks.push(channelInput(input.fields.channel));

  for (const item of form.fields) {
    if ('header' in item) blocks.push(header(item.id, item.header));
    else if ('choice' in item) blocks.push(choiceBlock(item.choice, input.fields));
    else {
      const arg = entry.args.find((a) => a.key === item.arg);
      if (!arg?.field) throw new Error(`the ${meta.kind} form lists ${item.arg}, which has no field`);
      blocks.push(...fieldBlocks(arg, input));
    }
  }
  blocks.push(repeatInput(input.fields.repeat));

  return {
    type: 'modal',
    callback_id: modalCallbackId(meta.kind),
    title: plain(form.title, LIMITS.viewTitle),
    submit: plain(form.submit, LIMITS.viewButton),
    close: plain('Cancel', LIMITS.viewButton),
    private_metadata: encodeMeta(meta),
    blocks,
  };
}

/**
 * Every form's last field: empty, the form runs now; with a "when", the same command becomes a schedule
 * through the one schedule path, and nothing runs now.
 */
function repeatInput(initial: string | undefined): types.InputBlock {
  return textInput({
    blockId: blockIdOf('repeat'),
    label: 'Repeat (optional)',
    hint: 'Leave empty to run it once, now. With a "when", it runs on that schedule instead (ranges like "last 8 hours" are read at each run), and nothing runs now.',
    placeholder: REPEAT_EXAMPLE,
    initial,
    optional: true,
  });
}

function header(blockId: string, text: string): types.HeaderBlock {
  return { type: 'header', block_id: blockId, text: plain(text, LIMITS.headerText) };
}

/** An either/or choice's radio buttons, worded where the choice is (core/forms/choices.ts). */
function choiceBlock(name: ChoiceName, fields: ModalFields): types.InputBlock {
  const choice = CHOICES[name];
  const fallback = 'fallback' in choice ? choice.fallback : undefined;
  return radioInput<string>({
    blockId: blockIdOf(choice.radio),
    label: choice.label,
    ...('hint' in choice ? { hint: choice.hint } : {}),
    options: Object.entries(choice.options).map(([value, text]) => ({ value, text: text as string })),
    initial: fields[choice.radio] ?? fallback,
    // A choice with a fallback always has an answer.
    optional: fallback === undefined,
  });
}

/** One argument's field, as its kind shows it: a text input, a type-ahead select, or the time ranges. */
function fieldBlocks(arg: Argument, input: ModalViewInput): types.KnownBlock[] {
  const field = arg.field!;
  const element = arg.kind.element(arg);
  if (element.input === 'ranges') return rangeBlocks(input, field.optional);
  const name = fieldNameOf(arg)!;
  const value = textIn(input.fields, name);
  if (element.input === 'select') {
    const multi = element.multi;
    return [
      externalSelectInput({
        blockId: blockIdOf(name),
        label: field.label,
        ...(field.hint ? { hint: field.hint } : {}),
        placeholder: field.placeholder ?? '',
        multi,
        initial: heldOptions(value, multi, input.names),
        optional: field.optional,
      }),
    ];
  }
  const placeholder =
    field.placeholder === DEFAULT_NAME_PLACEHOLDER
      ? input.defaultName
        ? clip(`Default: ${input.defaultName}`, LIMITS.placeholder)
        : undefined
      : field.placeholder;
  return [
    textInput({
      blockId: blockIdOf(name),
      label: field.label,
      ...(field.hint ? { hint: field.hint } : {}),
      ...(placeholder ? { placeholder } : {}),
      initial: value,
      optional: field.optional,
      ...(element.multiline ? { multiline: true } : {}),
    }),
  ];
}

function rangeBlocks(input: ModalViewInput, optional: boolean): types.KnownBlock[] {
  const { meta, fields } = input;
  const blocks: types.KnownBlock[] = [];
  const zone = input.timeZone ? ` Times are in your zone, ${input.timeZone}.` : '';
  meta.ranges.forEach((key, i) => {
    const blockId = rangeBlockId(key);
    const preview = input.previews?.[blockId];
    const hint = preview
      ? `${preview.ok ? '✅' : '⚠️'} ${preview.text}`
      : `${RANGE_HINT_EXAMPLES}. Press Enter to check how it is understood.${zone}`;
    blocks.push(
      textInput({
        blockId,
        actionId: MODAL_ACTION.range,
        label: meta.ranges.length > 1 ? `Time range ${i + 1}` : 'Time range',
        hint,
        placeholder: 'yesterday 9am to 5pm',
        initial: fields.ranges?.[i],
        optional,
        dispatchOnEnter: true,
      }),
    );
  });
  const elements: types.Button[] = [];
  if (meta.ranges.length < maxRangesOf(meta.kind)) {
    elements.push(button(MODAL_ACTION.addRange, 'Add another range', 'add'));
  }
  if (meta.ranges.length > 1) {
    meta.ranges.forEach((key, i) => {
      elements.push(button(removeRangeActionId(key), `Remove range ${i + 1}`, String(key)));
    });
  }
  if (elements.length > 0) blocks.push({ type: 'actions', block_id: RANGE_ACTIONS_BLOCK, elements });
  return blocks;
}

function channelInput(initial: string | undefined): types.InputBlock {
  const element: types.ConversationsSelect = {
    type: 'conversations_select',
    action_id: fieldActionId(blockIdOf('channel')),
    placeholder: plain('Choose a channel', LIMITS.placeholder),
    default_to_current_conversation: true,
    response_url_enabled: true,
    filter: { include: ['public', 'private'], exclude_bot_users: true },
  };
  if (initial) element.initial_conversation = initial;
  return {
    type: 'input',
    block_id: blockIdOf('channel'),
    label: plain('Post the result in', LIMITS.labelOrHint),
    hint: plain('The channel that sees the flow ID and status, as with /tsai.', LIMITS.labelOrHint),
    optional: false,
    element,
  };
}

/** What the form holds for a type-ahead field, as the select's initial options. */
function heldOptions(
  value: string | undefined,
  multi: boolean,
  names: Readonly<Record<string, string>> | undefined,
): SelectOptionSpec[] {
  if (value === undefined) return [];
  const entries = multi ? value.split(/[\n,]/) : [value];
  const seen = new Set<string>();
  const out: SelectOptionSpec[] = [];
  for (const e of entries) {
    const o = heldOption(e, names);
    if (o && !seen.has(o.value)) {
      seen.add(o.value);
      out.push(o);
    }
  }
  return multi ? out.slice(0, LIMITS.selectOptions) : out.slice(0, 1);
}

import type { types } from '@slack/bolt';
import {
  FIELD,
  type FormId,
  formOf,
  type ModalFields,
  maxRangesOf,
  type RangePreview,
  rangeBlockId,
  type TextFieldName,
} from '../../../core/forms/fields.js';
import {
  heldOption,
  isMultiField,
  isResourceField,
  type ResourceField,
} from '../../../core/forms/options.js';
import { SERVICE_MODEL_NAMING } from '../../../core/names.js';
import { LIMITS } from '../../../wire/block-kit.js';
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
  MODAL_CALLBACK,
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

const ID_EXAMPLE = '1353853719423311872';

const RANGE_HINT_EXAMPLES = 'e.g. yesterday 9am to 5pm · Nov 1 to Nov 3 · last 3 days';

/** Builds one of the four modals. Pure: same input, same view. */
export function buildModalView(input: ModalViewInput): types.ModalView {
  const { meta, fields } = input;
  const kind = meta.kind;
  const blocks: types.KnownBlock[] = [];

  for (const note of input.notes ?? []) blocks.push(context(`note_${blocks.length}`, note));
  if (meta.defaults?.length) {
    const names = meta.defaults.map((f) => FIELD_LABEL[f].toLowerCase()).join(', ');
    blocks.push(
      context('defaults_note', `Prefilled from this channel's defaults (\`/tsai use\`): ${names}.`),
    );
  }
  if (kind === 'eval') {
    blocks.push(
      section(
        'overwrite_warning',
        ':warning: *Output for time ranges that live monitoring already evaluated is overwritten.* ' +
          'Backfill only ranges the live model has not covered yet. Ranges must be in the past.',
      ),
    );
  }
  if (kind === 'relearn') {
    blocks.push(
      section(
        'relearn_note',
        'Give only the *new* signals and time ranges: the original training ranges need not be repeated.',
      ),
    );
  }
  if (!meta.channel) blocks.push(channelInput(fields.channel));

  const field = (name: TextFieldName) => fieldBlock(kind, name, fields, input.defaultName, input.names);
  switch (kind) {
    case 'learn':
      blocks.push(field('name'), field('description'), field('workspace'), field('modelName'));
      blocks.push(...dataBlocks(input));
      break;
    case 'relearn':
      blocks.push(field('model'), field('workspace'), field('name'), field('description'));
      blocks.push(field('signals'), ...rangeBlocks(input), field('dataspecName'));
      break;
    case 'score':
      blocks.push(field('name'), field('description'), field('model'), field('workspace'));
      blocks.push(...dataBlocks(input));
      blocks.push(
        header('outputs_header', 'Outputs'),
        field('outputMode'),
        field('prefix'),
        field('outputs'),
      );
      break;
    case 'eval':
      blocks.push(field('assessment'), field('datastream'), field('model'), field('entities'));
      blocks.push(...rangeBlocks(input), field('name'));
      break;
  }

  return {
    type: 'modal',
    callback_id: MODAL_CALLBACK[kind],
    title: plain(formOf(kind).title, LIMITS.viewTitle),
    submit: plain(formOf(kind).submit, LIMITS.viewButton),
    close: plain('Cancel', LIMITS.viewButton),
    private_metadata: encodeMeta(meta),
    blocks,
  };
}

function header(blockId: string, text: string): types.HeaderBlock {
  return { type: 'header', block_id: blockId, text: plain(text, LIMITS.headerText) };
}

/** Learn and Score: new data (signals, ranges, dataspec name) or an existing dataspec ID. */
function dataBlocks(input: ModalViewInput): types.KnownBlock[] {
  const { fields, meta } = input;
  const f = (name: TextFieldName) => fieldBlock(meta.kind, name, fields, input.defaultName, input.names);
  const blocks: types.KnownBlock[] = [header('data_header', 'Data'), f('dataMode'), f('signals')];
  blocks.push(...rangeBlocks(input), f('dataspecName'));
  blocks.push(f('dataspecId'));
  return blocks;
}

function rangeBlocks(input: ModalViewInput): types.KnownBlock[] {
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
        // Learn, relearn and score may take a dataspec ID instead of ranges; EVAL always needs its one range.
        optional: meta.kind !== 'eval',
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
    action_id: fieldActionId(FIELD.channel),
    placeholder: plain('Choose a channel', LIMITS.placeholder),
    default_to_current_conversation: true,
    response_url_enabled: true,
    filter: { include: ['public', 'private'], exclude_bot_users: true },
  };
  if (initial) element.initial_conversation = initial;
  return {
    type: 'input',
    block_id: FIELD.channel,
    label: plain('Post the result in', LIMITS.labelOrHint),
    hint: plain('The channel that sees the flow ID and status, as with /tsai.', LIMITS.labelOrHint),
    optional: false,
    element,
  };
}

const FIELD_LABEL: Record<TextFieldName, string> = {
  channel: 'Channel',
  name: 'Flow name',
  description: 'Description',
  workspace: 'Workspace',
  modelName: 'Model name',
  model: 'Model',
  dataMode: 'Data',
  signals: 'Signals',
  dataspecName: 'Dataspec name',
  dataspecId: 'Dataspec ID',
  outputMode: 'Where outputs go',
  prefix: 'Output prefix',
  outputs: 'Map outputs to existing signals',
  assessment: 'Assessment',
  datastream: 'Datastream',
  entities: 'Entities',
};

const MODEL_LABEL: Partial<Record<FormId, string>> = {
  relearn: 'Model to train further',
  score: 'Anomaly model',
  eval: 'Live model',
};

const MODEL_HINT: Partial<Record<FormId, string>> = {
  relearn: 'The existing anomaly model to teach; with a workspace chosen, its models are offered.',
  score: 'The anomaly model to apply; with a workspace chosen, its models are offered.',
  eval: "The assessment's live model; with an assessment chosen, its models are offered.",
};

const PICK = 'Type a name or an ID';
/** The options say the rest: this channel's default first, and "use ID …" for an ID the bot has not seen. */
const PICK_HINT = "Type a name or an ID; this channel's default comes first.";

function resourceHint(kind: FormId, name: ResourceField): string {
  switch (name) {
    case 'workspace':
      return kind === 'learn'
        ? `The workspace in which the new model is created. ${PICK_HINT}`
        : `The model's workspace. ${PICK_HINT}`;
    case 'model':
      return `${MODEL_HINT[kind] ?? ''} ${PICK_HINT}`.trim();
    case 'assessment':
      return `For an anomaly model, the signal it assesses; its common model M[0] is looked up on submit. ${PICK_HINT}`;
    case 'datastream':
      return PICK_HINT;
    case 'dataspecId':
      return 'Only with "Reuse an existing dataspec ID": the dataspec of an earlier flow. With a model chosen, its dataspecs are offered.';
    case 'signals':
      return `Pick as many as needed${kind === 'relearn' ? '' : ' (new data only)'}. Type id:label to give a signal a label of your own, e.g. ${ID_EXAMPLE}:Bearing temperature.`;
    case 'outputs':
      return `Only with "Map to existing signals": the signals the outputs go to, matching the model's output schema. Type id:output name to name an output, e.g. ${ID_EXAMPLE}:anomaly_score.`;
  }
}

const RESOURCE_LABEL: Record<Exclude<ResourceField, 'model' | 'signals'>, string> = {
  workspace: 'Workspace',
  assessment: 'Assessment',
  datastream: 'Datastream',
  dataspecId: 'Dataspec',
  outputs: 'Map outputs to existing signals',
};

/** What the form holds for a resource field, as the select's initial options. */
function heldOptions(
  name: ResourceField,
  fields: ModalFields,
  names: Readonly<Record<string, string>> | undefined,
): SelectOptionSpec[] {
  const value = fields[name];
  if (typeof value !== 'string') return [];
  const entries = isMultiField(name) ? value.split(/[\n,]/) : [value];
  const seen = new Set<string>();
  const out: SelectOptionSpec[] = [];
  for (const e of entries) {
    const o = heldOption(e, names);
    if (o && !seen.has(o.value)) {
      seen.add(o.value);
      out.push(o);
    }
  }
  return isMultiField(name) ? out.slice(0, LIMITS.selectOptions) : out.slice(0, 1);
}

function resourceBlock(
  kind: FormId,
  name: ResourceField,
  fields: ModalFields,
  names: Readonly<Record<string, string>> | undefined,
): types.InputBlock {
  const label =
    name === 'model'
      ? (MODEL_LABEL[kind] ?? 'Model')
      : name === 'signals'
        ? kind === 'relearn'
          ? 'New signals'
          : 'Signals'
        : RESOURCE_LABEL[name];
  const optional = name === 'dataspecId' || name === 'outputs' || (name === 'signals' && kind !== 'relearn');
  return externalSelectInput({
    blockId: FIELD[name],
    label,
    hint: resourceHint(kind, name),
    placeholder: PICK,
    multi: isMultiField(name),
    initial: heldOptions(name, fields, names),
    optional,
  });
}

function fieldBlock(
  kind: FormId,
  name: TextFieldName,
  fields: ModalFields,
  defaultName: string | undefined,
  names?: Readonly<Record<string, string>>,
): types.InputBlock {
  if (isResourceField(name)) return resourceBlock(kind, name, fields, names);
  const blockId = FIELD[name];
  const initial = typeof fields[name] === 'string' ? (fields[name] as string) : undefined;
  switch (name) {
    case 'name':
      return textInput({
        blockId,
        label: kind === 'score' ? 'Evaluation name' : FIELD_LABEL.name,
        placeholder: defaultName ? clip(`Default: ${defaultName}`, LIMITS.placeholder) : undefined,
        hint: 'Leave empty to use the default shown.',
        initial,
        optional: true,
      });
    case 'description':
      return textInput({ blockId, label: 'Description', initial, optional: true, multiline: true });
    case 'modelName':
      return textInput({
        blockId,
        label: 'Model name',
        hint: `Leave empty and the service names it: ${SERVICE_MODEL_NAMING}.`,
        initial,
        optional: true,
      });
    case 'dataMode':
      return radioInput({
        blockId,
        label: 'Data',
        options: [
          { value: 'new', text: 'New: signals and time ranges' },
          { value: 'dataspec', text: 'Reuse an existing dataspec ID' },
        ],
        initial: fields.dataMode ?? 'new',
        optional: false,
      });
    case 'dataspecName':
      return textInput({
        blockId,
        label: 'Dataspec name',
        hint: 'Optional name for the dataspec built from these signals and ranges.',
        initial,
        optional: true,
      });
    case 'outputMode':
      return radioInput({
        blockId,
        label: 'Where outputs go',
        hint: 'Choose exactly one, and fill in its field below.',
        options: [
          { value: 'prefix', text: 'New signals with a prefix' },
          { value: 'map', text: 'Map to existing signals' },
        ],
        initial: fields.outputMode,
        optional: true,
      });
    case 'prefix':
      return textInput({
        blockId,
        label: 'Output prefix',
        hint: 'New output signals are named prefix/<output name>. Only with "New signals with a prefix".',
        placeholder: 'pump-7/anomaly',
        initial,
        optional: true,
      });
    case 'entities':
      return textInput({
        blockId,
        label: 'Entities',
        hint: 'Entity names, separated by commas or one per line, e.g. pump-7, pump-8',
        initial,
        optional: false,
        multiline: true,
      });
    case 'channel':
      return channelInput(fields.channel);
  }
}

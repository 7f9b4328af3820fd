import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { mrkdwnProblems } from './mrkdwn.js';

/**
 * What Slack would refuse in a payload, by the vendored Block Kit JSON Schema (README.md beside this file)
 * plus the limits that schema leaves to the payload around the blocks, and what it would misread: an
 * unescaped `<`, `>` or `&` in mrkdwn text (mrkdwn.ts). Each limit below names where Slack states it.
 */
export const PAYLOAD_LIMITS = {
  /** docs.slack.dev/reference/block-kit/blocks: "up to 50 blocks in each message, and 100 in modals or Home tabs". */
  blocksPerMessage: 50,
  /** docs.slack.dev/reference/methods/chat.postMessage: text is truncated past 40,000 characters. */
  postedText: 40_000,
  /** docs.slack.dev/reference/methods/chat.update: `msg_too_long` past 4,000 characters of text. */
  updatedText: 4_000,
  /**
   * docs.slack.dev/reference/block-kit/composition-objects/option-object says 150 characters for a value,
   * @slack/types `Option.value` says 75; Slack's clients are held to the smaller.
   */
  optionValue: 75,
  /** docs.slack.dev/reference/methods/views.open: `view_too_large` past 250 kB. */
  viewBytes: 250_000,
} as const;

type Json = Record<string, unknown>;

const SCHEMA = JSON.parse(
  readFileSync(new URL('./slack-block-kit.schema.json', import.meta.url), 'utf8'),
) as {
  $id: string;
  $defs: Record<string, unknown>;
};

const ajv = new Ajv2020({ allErrors: true, strict: false });
ajv.addFormat('uri', (s: string) => URL.canParse(s));
ajv.addSchema(SCHEMA);
const def = (name: string): ValidateFunction => {
  const v = ajv.getSchema(`${SCHEMA.$id}#/$defs/${name}`);
  if (!v) throw new Error(`the Block Kit schema has no $defs/${name}`);
  return v;
};
const blocksOf = (max: number) =>
  ajv.compile({ type: 'array', minItems: 1, maxItems: max, items: { $ref: `${SCHEMA.$id}#/$defs/block` } });

const validators = {
  message: blocksOf(PAYLOAD_LIMITS.blocksPerMessage),
  modal: def('modal_view'),
  home: def('home_view'),
  options: ajv.compile({
    type: 'object',
    oneOf: [
      {
        required: ['options'],
        properties: {
          options: {
            type: 'array',
            maxItems: 100,
            items: { $ref: `${SCHEMA.$id}#/$defs/option_object_plain_text` },
          },
        },
      },
      {
        required: ['option_groups'],
        properties: {
          option_groups: {
            type: 'array',
            maxItems: 100,
            items: { $ref: `${SCHEMA.$id}#/$defs/option_group_object` },
          },
        },
      },
    ],
  }),
};

/** The deepest errors only: a failed `oneOf` of element kinds otherwise lists every kind it was not. */
function describe(errors: ErrorObject[] | null | undefined, at: string): string[] {
  if (!errors?.length) return [];
  // A branch of a union that was not meant (`type` is not this kind) says nothing when another did fail.
  const telling = errors.filter((e) => !['const', 'oneOf', 'anyOf', 'if'].includes(e.keyword));
  const pool = telling.length > 0 ? telling : errors;
  const depth = Math.max(...pool.map((e) => e.instancePath.split('/').length));
  const deepest = pool.filter((e) => e.instancePath.split('/').length === depth);
  const lines = deepest.map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
    return `${at}${e.instancePath}: ${e.message ?? e.keyword}${extra}`;
  });
  return [...new Set(lines)];
}

/** Each failing block against its own kind's schema, so the problem is named where it is. */
function blockProblems(blocks: unknown, at: string): string[] {
  if (!Array.isArray(blocks)) return [`${at}: blocks is not a list`];
  const out: string[] = [];
  const ids = new Set<string>();
  for (const [i, b] of blocks.entries()) {
    const kind = (b as Json | null)?.type;
    const v = typeof kind === 'string' ? ajv.getSchema(`${SCHEMA.$id}#/$defs/${kind}_block`) : undefined;
    if (!v) out.push(`${at}/${i}: no block kind "${String(kind)}"`);
    else if (!v(b)) out.push(...describe(v.errors, `${at}/${i} (${kind})`));
    const id = (b as Json).block_id;
    if (typeof id === 'string') {
      if (ids.has(id)) out.push(`${at}/${i}: block_id "${id}" is used twice`);
      ids.add(id);
    }
  }
  return out;
}

/** Option values past the stricter documented limit (the schema holds the larger). */
function optionValueProblems(payload: unknown, at: string): string[] {
  const out: string[] = [];
  const option = (o: unknown, path: string) => {
    const value = (o as Json | null)?.value;
    if (typeof value === 'string' && value.length > PAYLOAD_LIMITS.optionValue)
      out.push(`${path}/value: ${value.length} characters (max ${PAYLOAD_LIMITS.optionValue})`);
  };
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, `${path}/${i}`);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v as Json)) {
        if (k === 'initial_option') option(x, `${path}/${k}`);
        else if ((k === 'options' || k === 'initial_options') && Array.isArray(x))
          for (const [i, o] of x.entries()) option(o, `${path}/${k}/${i}`);
        walk(x, `${path}/${k}`);
      }
    }
  };
  walk(payload, at);
  return out;
}

export type MessageKind = 'posted' | 'updated';

/** A message body (chat.postMessage, chat.postEphemeral, chat.update, response_url, a command's ack). */
export function messageProblems(body: Json, kind: MessageKind = 'posted'): string[] {
  const text = body.text;
  const blocks = body.blocks;
  const out: string[] = [];
  const max = kind === 'updated' ? PAYLOAD_LIMITS.updatedText : PAYLOAD_LIMITS.postedText;
  if (typeof text !== 'string' || text.length === 0)
    out.push(
      'text: missing (it is the notification and screen-reader text, and the only text without blocks)',
    );
  else if (text.length > max) out.push(`text: ${text.length} characters (max ${max})`);
  out.push(...mrkdwnProblems(body, '', true));
  if (blocks === undefined) return out;
  if (!validators.message(blocks)) {
    const own = blockProblems(blocks, 'blocks');
    out.push(...(own.length > 0 ? own : describe(validators.message.errors, 'blocks')));
  } else out.push(...blockProblems(blocks, 'blocks'));
  return [...out, ...optionValueProblems(blocks, 'blocks')];
}

/** A modal (views.open, views.push, views.update, a response_action's view) or a Home (views.publish). */
export function viewProblems(view: Json): string[] {
  const kind = view.type === 'home' ? 'home' : 'modal';
  const out: string[] = [];
  const bytes = Buffer.byteLength(JSON.stringify(view));
  if (bytes > PAYLOAD_LIMITS.viewBytes) out.push(`view: ${bytes} bytes (max ${PAYLOAD_LIMITS.viewBytes})`);
  const v = validators[kind];
  if (!v(view)) {
    const { blocks, ...envelope } = view as Json & { blocks?: unknown };
    const own = blockProblems(blocks, 'view.blocks');
    out.push(...own);
    if (own.length === 0 || !def(`${kind}_view`)({ ...envelope, blocks: [{ type: 'divider' }] }))
      out.push(...describe(v.errors, 'view'));
  } else out.push(...blockProblems(view.blocks, 'view.blocks'));
  return [...new Set([...out, ...optionValueProblems(view, 'view'), ...mrkdwnProblems(view, 'view')])];
}

/** An answer to a block_suggestion: `{options}` or `{option_groups}`. */
export function optionsProblems(body: unknown): string[] {
  const out = validators.options(body) ? [] : describe(validators.options.errors, 'options');
  return [...out, ...optionValueProblems(body, 'options')];
}

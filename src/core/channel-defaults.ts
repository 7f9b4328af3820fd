import type { ChannelDefaults, Store, StoredChannelDefaults } from '../store/index.js';
import type { Shift } from '../time/index.js';
import { AuditLog } from './audit.js';
import { type Now, nowMs } from './clock.js';
import { EXAMPLE_IDS } from './ids.js';
import { ID } from './kinds/arguments/id.js';
import { ASSESSMENT, DATASTREAM, MODEL, WORKSPACE } from './kinds/resources.js';

export type { ChannelDefaults, StoredChannelDefaults };

export const CHANNEL_DEFAULT_KEYS = ['workspace', 'datastream', 'model', 'assessment', 'entities'] as const;
export type ChannelDefaultKey = (typeof CHANNEL_DEFAULT_KEYS)[number];

/**
 * The channel defaults that hold a resource, as `/tsai use` takes them: by ID or by name, looked up as
 * the operations' arguments they fill are (`use workspace="Pump station A"`).
 */
export const CHANNEL_DEFAULT_ARGUMENTS = [
  { key: 'workspace', kind: ID, lookup: { names: WORKSPACE } },
  { key: 'datastream', kind: ID, lookup: { names: DATASTREAM } },
  { key: 'model', kind: ID, lookup: { names: MODEL } },
  { key: 'assessment', kind: ID, lookup: { names: ASSESSMENT } },
] as const;

const ID_RE = /^\d{1,30}$/;
const MAX_ENTITIES = 100;
const MAX_ENTITY_LENGTH = 200;
export const CHANNEL_DEFAULTS_EXAMPLE = `/tsai use workspace=${EXAMPLE_IDS.workspace} datastream=${EXAMPLE_IDS.datastream} entities=pump-1,pump-2`;

export type ValidatedDefaults =
  | { ok: true; values: ChannelDefaults }
  | { ok: false; error: string; example: string };

/**
 * Validates `/tsai use key=value …` arguments (keys already lower-cased by the parser). IDs must be
 * numeric; `entities` is a comma-separated list.
 */
export function validateChannelDefaults(
  args: Record<string, string | string[] | undefined>,
): ValidatedDefaults {
  const fail = (error: string): ValidatedDefaults => ({
    ok: false,
    error,
    example: CHANNEL_DEFAULTS_EXAMPLE,
  });
  const values: ChannelDefaults = {};
  const keys = Object.keys(args).filter((k) => args[k] !== undefined);
  if (keys.length === 0) return fail(`Give at least one of ${CHANNEL_DEFAULT_KEYS.join(', ')}.`);
  for (const key of keys) {
    const raw = args[key]!;
    if (!(CHANNEL_DEFAULT_KEYS as readonly string[]).includes(key)) {
      return fail(`Unknown default "${key}": use ${CHANNEL_DEFAULT_KEYS.join(', ')}.`);
    }
    if (key === 'entities') {
      const list = (Array.isArray(raw) ? raw : raw.split(',')).map((e) => e.trim()).filter((e) => e !== '');
      if (list.length === 0)
        return fail('entities needs at least one entity name, e.g. entities=pump-1,pump-2.');
      if (list.length > MAX_ENTITIES) return fail(`At most ${MAX_ENTITIES} entities.`);
      const long = list.find((e) => e.length > MAX_ENTITY_LENGTH);
      if (long)
        return fail(`Entity name "${long.slice(0, 40)}…" is longer than ${MAX_ENTITY_LENGTH} characters.`);
      values.entities = [...new Set(list)];
      continue;
    }
    const v = (Array.isArray(raw) ? raw.join(',') : raw).trim();
    if (!ID_RE.test(v)) return fail(`${key} "${v}" is not a numeric ID.`);
    values[key as Exclude<ChannelDefaultKey, 'entities'>] = v;
  }
  return { ok: true, values };
}

/** The channel's declared shifts, which its time ranges may name; undefined when it declared none. */
export async function channelShifts(
  store: Store,
  channelId: string | undefined,
): Promise<readonly Shift[] | undefined> {
  if (!channelId) return undefined;
  const shifts = (await store.getChannelDefaults(channelId))?.shifts;
  return shifts && shifts.length > 0 ? shifts : undefined;
}

export function getChannelDefaults(store: Store, channelId: string): Promise<StoredChannelDefaults | null> {
  return store.getChannelDefaults(channelId);
}

/** Merges `values` into the channel's defaults and records it in the audit log. */
export async function setChannelDefaults(
  store: Store,
  o: {
    channelId: string;
    values: ChannelDefaults;
    userId: string;
    teamId?: string;
    now?: Now;
    audit?: AuditLog;
  },
): Promise<StoredChannelDefaults> {
  const at = nowMs(o.now);
  const stored = await store.setChannelDefaults(o.channelId, o.values, o.userId, at);
  await (o.audit ?? new AuditLog(store)).write([
    {
      at,
      userId: o.userId,
      teamId: o.teamId,
      channelId: o.channelId,
      operation: 'channel.defaults.set',
      params: { ...o.values },
      outcome: 'ok',
    },
  ]);
  return stored;
}

export async function clearChannelDefaults(
  store: Store,
  o: { channelId: string; userId: string; teamId?: string; now?: Now; audit?: AuditLog },
): Promise<boolean> {
  const cleared = await store.clearChannelDefaults(o.channelId);
  if (cleared) {
    await (o.audit ?? new AuditLog(store)).write([
      {
        at: nowMs(o.now),
        userId: o.userId,
        teamId: o.teamId,
        channelId: o.channelId,
        operation: 'channel.defaults.clear',
        outcome: 'ok',
      },
    ]);
  }
  return cleared;
}

export interface MergedArguments<T extends Partial<Record<ChannelDefaultKey, unknown>>> {
  values: T & ChannelDefaults;
  /** Keys whose value came from the channel defaults, in CHANNEL_DEFAULT_KEYS order. */
  fromDefaults: ChannelDefaultKey[];
}

/**
 * Explicit arguments win; a key that is missing (undefined or empty) takes the channel default.
 * `keys` limits which defaults apply (e.g. eval uses datastream, model, assessment, entities).
 */
export function applyChannelDefaults<T extends Partial<Record<ChannelDefaultKey, unknown>>>(
  explicit: T,
  defaults: ChannelDefaults | null | undefined,
  keys: readonly ChannelDefaultKey[] = CHANNEL_DEFAULT_KEYS,
): MergedArguments<T> {
  const values = { ...explicit } as T & ChannelDefaults;
  const fromDefaults: ChannelDefaultKey[] = [];
  for (const key of CHANNEL_DEFAULT_KEYS) {
    if (!keys.includes(key)) continue;
    const given = explicit[key];
    const missing = given === undefined || given === '' || (Array.isArray(given) && given.length === 0);
    const fallback = defaults?.[key];
    if (missing && fallback !== undefined) {
      (values as Record<string, unknown>)[key] = Array.isArray(fallback) ? [...fallback] : fallback;
      fromDefaults.push(key);
    }
  }
  return { values, fromDefaults };
}

/** "workspace 123 (channel default)" or "workspace 123". */
export function describeValue(
  key: ChannelDefaultKey,
  value: string | string[],
  fromDefaults: readonly ChannelDefaultKey[],
) {
  const text = Array.isArray(value) ? value.join(', ') : value;
  return `${key} ${text}${fromDefaults.includes(key) ? ' (channel default)' : ''}`;
}

/** Defaults as command arguments by canonical key, entities comma-separated (the bot's `channelDefaults` hook). */
export function channelDefaultsAsArgs(
  defaults: ChannelDefaults | null | undefined,
): Record<string, string> | null {
  if (!defaults) return null;
  const out: Record<string, string> = {};
  for (const key of CHANNEL_DEFAULT_KEYS) {
    const v = defaults[key];
    if (v === undefined) continue;
    out[key] = Array.isArray(v) ? v.join(',') : v;
  }
  return Object.keys(out).length ? out : null;
}

import type { OpenView, SelectOption } from './types.js';
import type { ElementRef } from './views.js';

/**
 * Type-ahead selects (`external_select`, `multi_external_select`): Slack asks the app for options as the
 * user types (block_suggestion) and the user can only pick one of those, or an initial option.
 */
type Json = Record<string, unknown>;

export const isExternalSelect = (el: Json) =>
  el.type === 'external_select' || el.type === 'multi_external_select';

/** `min_query_length`; Slack's default is 3. */
export const minQueryLength = (el: Json) =>
  typeof el.min_query_length === 'number' ? el.min_query_length : 3;

/** Slack's selected-option shape: text and value, plus the description when the option has one. */
function cleanOption(o: Json): SelectOption {
  const out: SelectOption = { text: o.text as SelectOption['text'], value: String(o.value) };
  if (o.description !== undefined) out.description = o.description;
  return out;
}

/** The options of an app's block_suggestion answer, groups flattened. */
export function optionsOfAnswer(body: unknown): SelectOption[] {
  const b = (body ?? {}) as Json;
  const flat = Array.isArray(b.option_groups)
    ? (b.option_groups as Json[]).flatMap((g) => (Array.isArray(g?.options) ? (g.options as Json[]) : []))
    : Array.isArray(b.options)
      ? (b.options as Json[])
      : [];
  return flat.map(cleanOption);
}

/** Keeps what the app offered for this element, so the user can pick it later. */
export function rememberOffered(ov: OpenView, ref: ElementRef, options: SelectOption[]): void {
  ov.offered ??= {};
  ov.offered[ref.blockId] ??= {};
  const byAction = ov.offered[ref.blockId]!;
  const known = new Map((byAction[ref.actionId] ?? []).map((o) => [o.value, o]));
  for (const o of options) known.set(o.value, o);
  byAction[ref.actionId] = [...known.values()];
}

function pickable(ov: OpenView, ref: ElementRef): Map<string, SelectOption> {
  const el = ref.element;
  const initial = [
    ...(el.initial_option ? [el.initial_option as Json] : []),
    ...(Array.isArray(el.initial_options) ? (el.initial_options as Json[]) : []),
  ].map(cleanOption);
  const offered = ov.offered?.[ref.blockId]?.[ref.actionId] ?? [];
  // What the user already picked stays pickable after later suggestions replace the list.
  const held = ov.values[ref.blockId]?.[ref.actionId];
  const kept = (Array.isArray(held) ? held : held ? [held] : []).filter(
    (o): o is SelectOption => !!o && typeof o === 'object' && 'value' in o,
  );
  return new Map([...initial, ...kept, ...offered].map((o) => [o.value, o]));
}

/**
 * What a user's choice in a type-ahead select stores: the full options (text and value) the app offered.
 * A value (or option) the app never offered is refused, as Slack's client cannot pick it. Other elements'
 * values pass through.
 */
export function resolveChoice(ov: OpenView, ref: ElementRef, value: unknown): unknown {
  if (!isExternalSelect(ref.element) || value === undefined || value === null) return value;
  const multi = ref.element.type === 'multi_external_select';
  const list = Array.isArray(value) ? value : [value];
  if (!multi && list.length > 1) throw new Error(`${ref.blockId}/${ref.actionId} takes one option`);
  const max = ref.element.max_selected_items;
  if (multi && typeof max === 'number' && list.length > max)
    throw new Error(`${ref.blockId}/${ref.actionId} takes at most ${max} options`);
  const known = pickable(ov, ref);
  const chosen = list.map((v) => {
    const key = v && typeof v === 'object' && 'value' in v ? String((v as Json).value) : String(v);
    const o = known.get(key);
    if (!o) {
      const offered = [...known.keys()].join(', ') || 'none yet: type to get suggestions';
      throw new Error(
        `option "${key}" was not offered for ${ref.blockId}/${ref.actionId} (offered: ${offered})`,
      );
    }
    return o;
  });
  return multi ? chosen : (chosen[0] ?? null);
}

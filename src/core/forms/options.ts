import type { CatalogLinks, ChannelDefaults, Store } from '../../store/index.js';
import {
  type Candidate,
  candidateLabel,
  decodeCandidateValue,
  fitText,
  OPTION_TEXT_MAX,
  pickedSignals,
  searchCandidates,
} from '../catalog/search.js';
import { isServiceId } from '../ids.js';
import {
  type FormId,
  isFormId,
  type PickedResources,
  type SelectField,
  selectFieldOf,
  selectFields,
  takesOwnLabels,
} from './fields.js';

export { NARROWING, type PickedResources } from './fields.js';

export interface FieldOptionsQuery {
  teamId: string;
  /** Which form asks; unknown (an unreadable view) leaves the field un-narrowed. */
  form?: FormId;
  /** The field's name, as the form's entry names it. */
  field: string;
  /** What the user typed so far. */
  text: string;
  picked?: PickedResources;
  /** The defaults of the channel the form posts in. */
  defaults?: ChannelDefaults | null;
  /** At most 100 (Slack's limit). */
  limit?: number;
}

const LINK_WORD: Record<keyof CatalogLinks, string> = {
  workspace: 'workspace',
  assessment: 'assessment',
  model: 'model',
};

/**
 * Which picked resource narrows a field, as far as the form asks for it, by the kinds of its type-ahead
 * fields: an assessment's live model (else a workspace's models), a model's dataspecs.
 */
function linksFor(form: FormId | undefined, field: SelectField, picked: PickedResources): CatalogLinks {
  if (!form || !isFormId(form)) return {};
  const picks = selectFields(form).filter((f) => !f.multi);
  if (!picks.some((f) => f.name === field.name)) return {};
  const asks = new Set(picks.map((f) => f.catalog));
  if (field.catalog === 'model') {
    if (asks.has('assessment')) return picked.assessment ? { assessment: picked.assessment } : {};
    return asks.has('workspace') && picked.workspace ? { workspace: picked.workspace } : {};
  }
  if (field.catalog === 'dataspec' && asks.has('model') && picked.model) return { model: picked.model };
  return {};
}

/** `1050…:Bearing temp` typed into a signal field: that ID with that label (no commas: lists split on them). */
const TYPED_WITH_LABEL = /^(\d{18,19})\s*:\s*([^,\n]+)$/;

/**
 * The options of a form's type-ahead field, best first: the channel's default for it (and, for a
 * workspace, the picked model's workspace), then the most recent; matched on name or ID as the user
 * types. Fields that depend on a picked resource offer only its resources (a workspace's models); when it
 * has none known, every match is offered, saying so. An ID the bot has never seen is offered as
 * "use ID …", and in a signal field `id:label` keeps its label, so anything that could be typed can still
 * be picked. An output's option carries no label: its label is the model's output name, not the signal's.
 */
export async function fieldOptions(store: Store, q: FieldOptionsQuery): Promise<Candidate[]> {
  const field = selectFieldOf(q.form && isFormId(q.form) ? q.form : undefined, q.field);
  if (!field) return [];
  const kind = field.catalog;
  // A list whose labels are not the resources' own (an output's name) offers IDs alone.
  const ownLabels = takesOwnLabels(field);
  const picked = q.picked ?? {};
  const limit = Math.max(1, Math.min(100, q.limit ?? 100));
  let text = q.text.trim();
  let typedLabel: { id: string; label: string } | undefined;
  const labelled = field.multi ? TYPED_WITH_LABEL.exec(text) : null;
  if (labelled) {
    typedLabel = { id: labelled[1]!, label: labelled[2]!.trim() };
    text = typedLabel.id;
  }

  const prefer: string[] = [];
  const fromDefaults = channelDefault(q.defaults, field.arg.key);
  if (typeof fromDefaults === 'string') prefer.push(fromDefaults);
  let modelsWorkspace: string | undefined;
  if (kind === 'workspace' && picked.model) {
    modelsWorkspace =
      (await store.getCatalogEntry(q.teamId, 'model', picked.model))?.workspaceId ?? undefined;
    if (modelsWorkspace) prefer.push(modelsWorkspace);
  }

  const links = linksFor(q.form, field, picked);
  const base = { teamId: q.teamId, kind, text, prefer, limit };
  let found = await searchCandidates(store, { ...base, links });
  const narrowed = (Object.keys(links) as (keyof CatalogLinks)[]).filter((k) => links[k]);
  if (narrowed.length > 0 && found.length === 0) {
    const why = `not known in the chosen ${narrowed.map((k) => LINK_WORD[k]).join(' and ')}`;
    found = (await searchCandidates(store, base)).map((c) =>
      c.origin === 'catalog' ? { ...c, description: fitText(why) } : c,
    );
  }

  if (modelsWorkspace && modelsWorkspace !== fromDefaults) {
    found = found.map((c) =>
      c.id === modelsWorkspace && c.origin === 'catalog'
        ? { ...c, description: "the chosen model's workspace" }
        : c,
    );
  }
  if (!ownLabels) found = found.map((c) => ({ ...c, value: c.id }));
  if (typedLabel) {
    const value = `${typedLabel.id}:${typedLabel.label}`;
    if (value.length <= OPTION_TEXT_MAX) {
      const known = found.find((c) => c.id === typedLabel.id);
      const head: Candidate = {
        id: typedLabel.id,
        name: typedLabel.label,
        label: fitText(`${typedLabel.label} · ${typedLabel.id}`),
        value,
        description: fitText(
          known?.name
            ? `as typed; the bot knows it as ${known.name}`
            : `${field.arg.labelNoun ?? 'label'} as typed`,
        ),
        origin: 'typed',
      };
      found = [head, ...found.filter((c) => c.value !== value)];
    }
  }
  return found.slice(0, limit);
}

/** What a channel's defaults hold for an argument, by its key (the defaults are named like the keys). */
function channelDefault(defaults: ChannelDefaults | null | undefined, key: string): string | undefined {
  const value = Object.entries(defaults ?? {}).find(([k]) => k === key)?.[1];
  return typeof value === 'string' ? value : undefined;
}

/** An option for a value a form already holds (prefilled, reopened): the name when known, else the ID. */
export function heldOption(
  value: string,
  names: Readonly<Record<string, string>> = {},
): { text: string; value: string } | undefined {
  const v = value.trim();
  if (v === '' || v.length > OPTION_TEXT_MAX) return undefined;
  const colon = v.indexOf(':');
  const id = colon < 0 ? v : v.slice(0, colon).trim();
  const label = colon < 0 ? '' : v.slice(colon + 1).trim();
  if (!isServiceId(id)) return { text: fitText(v), value: v };
  if (label) return { text: fitText(`${label} · ${id}`), value: v };
  return { text: candidateLabel(id, names[id]), value: v };
}

/**
 * The signals field of a submitted form, each pick with its label: the one it carries, else the name the
 * catalog knows (an option's value has room for a short label only), else none. Lines that are not
 * signals are left for validation to point out.
 */
export async function labelPickedSignals(store: Store, teamId: string, text: string): Promise<string> {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const v = line.trim();
    const d = decodeCandidateValue(v);
    if (!d || d.name) {
      out.push(line);
      continue;
    }
    const [ref] = await pickedSignals(store, teamId, [v]);
    const name = ref?.name;
    out.push(name && name !== d.id && !/[,\n]/.test(name) ? `${d.id}:${name}` : line);
  }
  return out.join('\n');
}

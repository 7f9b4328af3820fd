import type { CatalogEntry, CatalogLinks, ChannelDefaults, Store } from '../../store/index.js';
import { idsOf, type LinkKind } from '../catalog/kind.js';
import {
  type Candidate,
  candidateLabel,
  decodeCandidateValue,
  fitText,
  OPTION_TEXT_MAX,
  pickedWithLabels,
  searchCandidates,
} from '../catalog/search.js';
import { isServiceId } from '../ids.js';
import {
  type FormId,
  isFormId,
  LINK_KINDS,
  type PickedResources,
  type SelectField,
  selectFieldOf,
  selectFields,
  takesOwnLabels,
} from './fields.js';

export { LINK_KINDS, type PickedResources } from './fields.js';

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

const isLink = (kind: string): kind is LinkKind => (LINK_KINDS as readonly string[]).includes(kind);

/** The link of an entry to a resource of this kind (a model's workspace). */
function linkOf(e: CatalogEntry, kind: LinkKind): string | null {
  return kind === 'workspace' ? e.workspaceId : kind === 'assessment' ? e.assessmentId : e.modelId;
}

/**
 * Which picked resource narrows a field, as far as the form asks for it: the first kind of resource its
 * kind is narrowed by (`ResourceKind.narrowedBy`) that the form picks one of (an assessment's live model,
 * else a workspace's models; a model's dataspecs).
 */
function linksFor(form: FormId | undefined, field: SelectField, picked: PickedResources): CatalogLinks {
  if (!form || !isFormId(form)) return {};
  const picks = selectFields(form).filter((f) => !f.multi);
  if (!picks.some((f) => f.name === field.name)) return {};
  const asks = new Set(picks.map((f) => f.resource.name));
  const by = (field.resource.narrowedBy ?? []).find((k) => asks.has(k));
  return by && picked[by] ? { [by]: picked[by] } : {};
}

/** `1050…:Bearing temp` typed into a labelled field: that ID with that label (no commas: lists split on them). */
const TYPED_WITH_LABEL = /^(\S+?)\s*:\s*([^,\n]+)$/;

/**
 * The options of a form's type-ahead field, best first: the channel's default for it (and the resource
 * of its kind a picked one is linked to: the chosen model's workspace), then the most recent; matched on
 * name or ID as the user types. Fields that depend on a picked resource offer only its resources (a
 * workspace's models); when it has none known, every match is offered, saying so. An ID the bot has never
 * seen is offered as "use ID …", and in a labelled field `id:label` keeps its label, so anything that
 * could be typed can still be picked. A pick whose label is not its resource's name (an output's) carries
 * no label.
 */
export async function fieldOptions(store: Store, q: FieldOptionsQuery): Promise<Candidate[]> {
  const form = q.form && isFormId(q.form) ? q.form : undefined;
  const field = selectFieldOf(form, q.field);
  if (!field) return [];
  const kind = field.resource;
  const ids = idsOf(field.arg.lookup);
  const labels = field.arg.lookup?.labels;
  const ownLabels = takesOwnLabels(field);
  const picked = q.picked ?? {};
  const limit = Math.max(1, Math.min(100, q.limit ?? 100));
  let text = q.text.trim();
  let typedLabel: { id: string; label: string } | undefined;
  const labelled = field.multi && labels ? TYPED_WITH_LABEL.exec(text) : null;
  if (labelled && ids.is(labelled[1]!)) {
    typedLabel = { id: labelled[1]!, label: labelled[2]!.trim() };
    text = typedLabel.id;
  }

  const prefer: string[] = [];
  const fromDefaults = channelDefault(q.defaults, field.arg.key);
  if (typeof fromDefaults === 'string') prefer.push(fromDefaults);
  const linked = new Map<string, string>();
  if (isLink(kind.name)) {
    for (const f of selectFields(form).filter((f) => !f.multi && f.resource.name !== kind.name)) {
      const id = isLink(f.resource.name) ? picked[f.resource.name] : undefined;
      const entry = id ? await store.getCatalogEntry(q.teamId, f.resource.name, id) : null;
      const link = entry && linkOf(entry, kind.name);
      if (link && !linked.has(link)) {
        linked.set(link, `the chosen ${f.resource.one}'s ${kind.one}`);
        prefer.push(link);
      }
    }
  }

  const links = linksFor(form, field, picked);
  const base = { teamId: q.teamId, kind: kind.name, text, prefer, limit, labelled: ownLabels };
  let found = await searchCandidates(store, { ...base, links });
  const narrowed = (Object.keys(links) as LinkKind[]).filter((k) => links[k]);
  if (narrowed.length > 0 && found.length === 0) {
    const why = `not known in the chosen ${narrowed.join(' and ')}`;
    found = (await searchCandidates(store, base)).map((c) =>
      c.origin === 'catalog' ? { ...c, description: fitText(why) } : c,
    );
  }

  found = found.map((c) => {
    const why = linked.get(c.id);
    return why && c.id !== fromDefaults && c.origin === 'catalog' ? { ...c, description: why } : c;
  });
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
          known?.name && ownLabels
            ? `as typed; the bot knows it as ${known.name}`
            : `${labels?.noun ?? 'label'} as typed`,
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
 * A labelled field of a submitted form (its picks labelled with their resources' names: signals), each
 * pick with its label: the one it carries, else the name the catalog knows (an option's value has room
 * for a short label only), else none. Lines that are no IDs are left for validation to point out.
 */
export async function labelPicks(
  store: Store,
  teamId: string,
  field: SelectField,
  text: string,
): Promise<string> {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const v = line.trim();
    const d = decodeCandidateValue(v);
    if (!d || d.name) {
      out.push(line);
      continue;
    }
    const [ref] = await pickedWithLabels(store, teamId, field.resource.name, [v]);
    const name = ref?.name;
    out.push(name && name !== d.id && !/[,\n]/.test(name) ? `${d.id}:${name}` : line);
  }
  return out.join('\n');
}

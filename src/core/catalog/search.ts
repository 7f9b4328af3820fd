import {
  CATALOG_LIMIT_MAX,
  type CatalogEntry,
  type CatalogKind,
  type CatalogLinks,
  catalogKey,
  type Store,
} from '../../store/index.js';
import type { SignalRef } from '../grammar/types.js';
import { isServiceId } from '../ids.js';

/** Slack's limit for an option's text, value and description. */
export const OPTION_TEXT_MAX = 75;

export interface CandidateQuery {
  teamId: string;
  kind: CatalogKind;
  /** What the user typed so far. */
  text?: string;
  /** IDs offered first when they match, e.g. this channel's default for the field. */
  prefer?: readonly (string | undefined)[];
  /** Fields chosen already that narrow this one, e.g. `{ workspace }` for that workspace's models. */
  links?: CatalogLinks;
  /** At most 100, Slack's limit for options; default 100. */
  limit?: number;
  /** A pick carries its resource's name as its label (`id:name` in its value, when it fits): a signal's. */
  labelled?: boolean;
}

export interface Candidate {
  id: string;
  name?: string;
  /** Option text (≤ 75 characters): `Pump station A · 1353853719423311872`, or the bare ID. */
  label: string;
  /** Option value (≤ 75 characters): the ID; labelled, `id:name` when it fits. See `decodeCandidateValue`. */
  value: string;
  /** Why this option is there, when it is not plain (≤ 75 characters). */
  description?: string;
  /** `catalog`: a known entry; `typed`: an ID the user typed (or a default) the catalog does not hold. */
  origin: 'catalog' | 'typed';
  /** One of the preferred IDs (a channel default). */
  preferred?: true;
}

/** Cuts to at most `max` UTF-16 units without splitting a character, marking the cut with `…`. */
export function fitText(text: string, max = OPTION_TEXT_MAX): string {
  if (text.length <= max) return text;
  let out = '';
  for (const ch of text) {
    if (out.length + ch.length + 1 > max) break;
    out += ch;
  }
  return `${out.trimEnd()}…`;
}

const SEP = ' · ';

/** `name · id` with the name cut to fit, or the ID alone. */
export function candidateLabel(id: string, name: string | null | undefined): string {
  if (!name) return fitText(id);
  const room = OPTION_TEXT_MAX - SEP.length - id.length;
  return room < 4 ? fitText(name) : `${fitText(name, room)}${SEP}${id}`;
}

function candidateValue(labelled: boolean, id: string, name: string | null | undefined): string {
  if (labelled && name && id.length + 1 + name.length <= OPTION_TEXT_MAX) return `${id}:${name}`;
  return id;
}

/** An option's value back as the ID and the label it carried, if any. */
export function decodeCandidateValue(value: string): { id: string; name?: string } | null {
  const colon = value.indexOf(':');
  const id = colon < 0 ? value : value.slice(0, colon);
  if (!isServiceId(id)) return null;
  const name = colon < 0 ? '' : value.slice(colon + 1);
  return name ? { id, name } : { id };
}

function fromEntry(e: CatalogEntry, labelled: boolean, description?: string, preferred?: boolean): Candidate {
  return {
    id: e.id,
    ...(e.name ? { name: e.name } : {}),
    label: candidateLabel(e.id, e.name),
    value: candidateValue(labelled, e.id, e.name),
    ...(description ? { description: fitText(description) } : {}),
    origin: 'catalog',
    ...(preferred ? { preferred: true as const } : {}),
  };
}

function typedCandidate(id: string, label: string, description: string, preferred?: boolean): Candidate {
  return {
    id,
    label: fitText(label),
    value: id,
    description: fitText(description),
    origin: 'typed',
    ...(preferred ? { preferred: true as const } : {}),
  };
}

function linkWords(links: CatalogLinks | undefined): string | undefined {
  const words = (['workspace', 'assessment', 'model'] as const).filter((k) => links?.[k]);
  return words.length ? words.join(' and ') : undefined;
}

/**
 * Options for a type-ahead field, best first: an ID-shaped text is offered first (as `use ID …` when
 * the bot does not know it), then the preferred IDs that match, then the rest as the store ranks them
 * (exact name or ID, prefix, substring; most recently used first within each). A preferred ID the
 * catalog has never seen is still offered, when nothing narrows the field. At most `limit` (≤ 100).
 */
export async function searchCandidates(store: Store, q: CandidateQuery): Promise<Candidate[]> {
  const limit = Math.max(1, Math.min(CATALOG_LIMIT_MAX, Math.floor(q.limit ?? CATALOG_LIMIT_MAX)));
  const text = (q.text ?? '').trim();
  const prefer = [...new Set(q.prefer ?? [])].filter((id): id is string => !!id && isServiceId(id));
  const entries = await store.searchCatalog({
    teamId: q.teamId,
    kind: q.kind,
    text,
    prefer,
    ...(q.links ? { links: q.links } : {}),
    limit,
  });
  const found = new Set(entries.map((e) => e.id));
  const narrowed = linkWords(q.links);
  const labelled = q.labelled === true;

  const head: Candidate[] = [];
  if (isServiceId(text) && !found.has(text)) {
    const known = await store.getCatalogEntry(q.teamId, q.kind, text);
    const preferred = prefer.includes(text);
    if (known && known.missingAt === null) {
      head.push(
        fromEntry(known, labelled, narrowed ? `not known in the chosen ${narrowed}` : undefined, preferred),
      );
    } else {
      const why = known
        ? 'the service said it does not exist'
        : preferred
          ? 'channel default, not seen by the bot yet'
          : 'not seen by the bot yet';
      head.push(typedCandidate(text, `use ID ${text}`, why, preferred));
    }
    found.add(text);
  }

  const key = catalogKey(text);
  const unseenDefaults: Candidate[] = [];
  if (!narrowed) {
    for (const id of prefer) {
      if (found.has(id) || (key && !id.includes(key))) continue;
      if (await store.getCatalogEntry(q.teamId, q.kind, id)) continue;
      unseenDefaults.push(typedCandidate(id, id, 'channel default', true));
    }
  }

  const listed = entries.map((e) =>
    prefer.includes(e.id) ? fromEntry(e, labelled, 'channel default', true) : fromEntry(e, labelled),
  );
  const preferredCount = listed.filter((c) => c.preferred).length;
  return [
    ...head,
    ...listed.slice(0, preferredCount),
    ...unseenDefaults,
    ...listed.slice(preferredCount),
  ].slice(0, limit);
}

/**
 * The resources picked in a labelled multi-select (signals), in order, each with its label: the one the
 * option carried, else the catalog's name, else the ID (the grammar's default label). Values that are no
 * IDs are skipped.
 */
export async function pickedWithLabels(
  store: Store,
  teamId: string,
  kind: CatalogKind,
  values: readonly string[],
): Promise<SignalRef[]> {
  const out: SignalRef[] = [];
  const seen = new Set<string>();
  for (const v of values) {
    const d = decodeCandidateValue(v);
    if (!d || seen.has(d.id)) continue;
    seen.add(d.id);
    const name = d.name ?? (await store.getCatalogEntry(teamId, kind, d.id))?.name ?? d.id;
    out.push({ signal: d.id, name });
  }
  return out;
}

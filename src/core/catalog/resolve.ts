import { type CatalogEntry, type CatalogLinks, catalogKey, type Store } from '../../store/index.js';
import { nameKey, type ResolvedNames } from '../grammar/parse.js';
import { closeEnough, editDistance, MAX_SUGGESTIONS } from '../grammar/suggest.js';
import type { NameRef } from '../grammar/types.js';
import { article, type IdShape, type LinkKind, type ResourceKind, SERVICE_IDS } from './kind.js';
import { type Candidate, candidateLabel } from './search.js';

export interface NameQuery {
  teamId: string;
  kind: ResourceKind;
  /** The ID or the name as typed (without its quotes). */
  text: string;
  /**
   * Resources the command names as well (e.g. its workspace): they only choose among several entries
   * of the same name; a unique name resolves without them.
   */
  links?: CatalogLinks;
  /** What its IDs look like (default: the service's). */
  ids?: IdShape;
}

export { editDistance };

export type NameResolution =
  | { ok: true; id: string; name?: string; by: 'id' | 'name' }
  | {
      ok: false;
      reason: 'ambiguous' | 'unknown';
      text: string;
      /** Ambiguous: every entry of that name (up to 10). Unknown: the closest names (up to 3). */
      candidates: Candidate[];
      /** One or two sentences for the user, naming the candidates and their IDs. */
      message: string;
    };

const MAX_AMBIGUOUS = 10;
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const toCandidate = (e: CatalogEntry): Candidate => ({
  id: e.id,
  ...(e.name ? { name: e.name } : {}),
  label: candidateLabel(e.id, e.name),
  value: e.id,
  origin: 'catalog',
});

const listed = (cs: Candidate[]) => cs.map((c) => (c.name ? `"${c.name}" (\`${c.id}\`)` : `\`${c.id}\``));

/**
 * A resource by its ID or its exact name. An ID-shaped text is the ID, whether or not the bot knows
 * it. Otherwise the name must match exactly one live entry (case and runs of whitespace aside); with
 * several, `links` may single one out; anything else is refused with the candidates: the same-named ones,
 * or the names the bot knows closest to it. Never a guess.
 */
export async function resolveName(store: Store, q: NameQuery): Promise<NameResolution> {
  const text = q.text.trim();
  const { one, many } = q.kind;
  const ids = q.ids ?? SERVICE_IDS;
  if (ids.is(text)) {
    const known = await store.getCatalogEntry(q.teamId, q.kind.name, text);
    return { ok: true, id: text, ...(known?.name ? { name: known.name } : {}), by: 'id' };
  }
  const fail = (
    reason: 'ambiguous' | 'unknown',
    candidates: Candidate[],
    message: string,
  ): NameResolution => ({ ok: false, reason, text, candidates, message });
  if (catalogKey(text) === '') return fail('unknown', [], `Give ${article(one)} ${one} name or ID.`);
  if (ids.meant(text)) {
    return fail(
      'unknown',
      [],
      `\`${text}\` is not a valid ${one} ID: IDs are ${ids.described}, e.g. \`${ids.example}\`. ${capital(article(one))} ${one} may also be given by its name.`,
    );
  }

  const same = await store.findCatalogByName(q.teamId, q.kind.name, text, { limit: MAX_AMBIGUOUS });
  let match = same.length === 1 ? same[0] : undefined;
  if (same.length > 1 && q.links && Object.values(q.links).some(Boolean)) {
    const narrowed = await store.findCatalogByName(q.teamId, q.kind.name, text, {
      links: q.links,
      limit: 2,
    });
    if (narrowed.length === 1) match = narrowed[0];
  }
  if (match) return { ok: true, id: match.id, ...(match.name ? { name: match.name } : {}), by: 'name' };
  if (same.length > 1) {
    const candidates = same.map(toCandidate);
    const by = q.kind.narrowedBy?.length ? `, or name its ${q.kind.narrowedBy.join(' or ')} as well` : '';
    return fail(
      'ambiguous',
      candidates,
      `${same.length >= MAX_AMBIGUOUS ? 'Several' : same.length} ${many} are named "${text}": ${listed(candidates).join(', ')}. Give the ID instead${by}.`,
    );
  }
  const closest = (await closestEntries(store, q, text)).map(toCandidate);
  if (closest.length > 0)
    return fail(
      'unknown',
      closest,
      `No ${one} named "${text}" is known. Closest: ${listed(closest).join(', ')}. Give the name as the bot knows it.`,
    );
  const known = (await store.searchCatalog({ teamId: q.teamId, kind: q.kind.name, limit: 20 }))
    .filter((e) => e.name)
    .slice(0, MAX_SUGGESTIONS)
    .map(toCandidate);
  if (known.length > 0)
    return fail(
      'unknown',
      known,
      `No ${one} named "${text}" is known. The ${many} the bot knows by name include ${listed(known).join(', ')}.`,
    );
  return fail(
    'unknown',
    [],
    `No ${one} named "${text}" is known: the bot knows no ${one} by name yet. Give its ID this time (IDs are ${ids.described}); once the service has named it to the bot, its name will do.`,
  );
}

/** How many of the team's entries of a kind a misspelt name is compared with, most recently used first. */
const RECENT_POOL = 200;

/**
 * Named entries near `text`, for the refusal only: those sharing a word with it (or containing it), and
 * the recently used ones within a slip of it (`closeEnough`), the smallest edit distance first, then the
 * most recently used; at most three.
 */
async function closestEntries(store: Store, q: NameQuery, text: string): Promise<CatalogEntry[]> {
  const key = catalogKey(text);
  const words = [...new Set(key.split(' '))].filter((w) => [...w].length >= 3);
  words.sort((a, b) => b.length - a.length);
  const pool = new Map<string, { e: CatalogEntry; d: number }>();
  const add = (e: CatalogEntry) => {
    if (e.name && !pool.has(e.id)) pool.set(e.id, { e, d: editDistance(key, catalogKey(e.name)) });
  };
  for (const t of [key, ...words.slice(0, 4)]) {
    for (const e of await store.searchCatalog({ teamId: q.teamId, kind: q.kind.name, text: t, limit: 50 }))
      add(e);
  }
  for (const e of await store.searchCatalog({ teamId: q.teamId, kind: q.kind.name, limit: RECENT_POOL })) {
    if (e.name && editDistance(key, catalogKey(e.name)) <= closeEnough(key)) add(e);
  }
  return [...pool.values()]
    .sort((a, b) => a.d - b.d || b.e.lastUsedAt - a.e.lastUsedAt)
    .slice(0, MAX_SUGGESTIONS)
    .map((x) => x.e);
}

/** A name a command gave, and what it stood for. */
export interface ResolvedName {
  key: string;
  text: string;
  kind: ResourceKind;
  id: string;
  name?: string;
}

export type CommandNamesResolution =
  | {
      ok: true;
      /** For the grammar to fill the names in (`fillNames`). */
      names: ResolvedNames;
      /** What each name stood for, for the reply (`describeResolved`). */
      resolved: ResolvedName[];
    }
  | { ok: false; key: string; resolution: Extract<NameResolution, { ok: false }>; message: string };

const isLink = (kind: string): kind is LinkKind =>
  kind === 'workspace' || kind === 'assessment' || kind === 'model';

/**
 * The names a command gives where IDs go (the grammar's `names` outcome), each looked up in the team's
 * catalog as its argument's lookup says. A name whose kind of resource is narrowed by others
 * (`ResourceKind.narrowedBy`: a model by its workspace) is looked up after them, and the resources the
 * command gives or names single out one of several of the same name. The first name that is unknown or
 * ambiguous refuses the command, with the candidates.
 */
export async function resolveCommandNames(
  store: Store,
  teamId: string,
  command: { names: readonly NameRef[]; ids: Readonly<Record<string, string>> },
): Promise<CommandNamesResolution> {
  const links: CatalogLinks = {};
  for (const [kind, id] of Object.entries(command.ids)) if (isLink(kind)) links[kind] = id;
  const pending = [...command.names];
  const resolved: ResolvedName[] = [];
  while (pending.length > 0) {
    const waits = (n: NameRef) =>
      (n.kind.narrowedBy ?? []).some((k) => pending.some((p) => p.kind.name === k));
    const at = Math.max(
      0,
      pending.findIndex((n) => !waits(n)),
    );
    const n = pending.splice(at, 1)[0]!;
    const narrow: CatalogLinks = {};
    for (const k of n.kind.narrowedBy ?? []) if (links[k]) narrow[k] = links[k];
    const r = await resolveName(store, { teamId, kind: n.kind, text: n.text, links: narrow });
    if (!r.ok) return { ok: false, key: n.key, resolution: r, message: `\`${n.key}=\`: ${r.message}` };
    resolved.push({ key: n.key, text: n.text, kind: n.kind, id: r.id, ...(r.name ? { name: r.name } : {}) });
    if (isLink(n.kind.name)) links[n.kind.name] ??= r.id;
  }
  const names = new Map<string, { id: string; name?: string }>();
  for (const r of resolved)
    names.set(nameKey(r.key, r.text), { id: r.id, ...(r.name ? { name: r.name } : {}) });
  return { ok: true, names, resolved };
}

/** The line a reply carries to say what the names stood for: `workspace "Pump station A" → \`1353…\``. */
export function describeResolved(resolved: readonly ResolvedName[]): string | undefined {
  if (resolved.length === 0) return undefined;
  const parts = resolved.map((r) => `${r.kind.one} "${r.text}" → \`${r.id}\``);
  return `Names resolved: ${parts.join(', ')}.`;
}

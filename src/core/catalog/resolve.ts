import {
  type CatalogEntry,
  type CatalogKind,
  type CatalogLinks,
  catalogKey,
  type Store,
} from '../../store/index.js';
import { nameKey, type ResolvedNames } from '../grammar/parse.js';
import { closeEnough, editDistance, MAX_SUGGESTIONS } from '../grammar/suggest.js';
import type { NameRef } from '../grammar/types.js';
import { EXAMPLE_IDS, isServiceId } from '../ids.js';
import { type Candidate, candidateLabel } from './search.js';

/** Command option keys whose values are catalog resources. */
export const CATALOG_KIND_BY_KEY: Readonly<Record<string, CatalogKind>> = {
  workspace: 'workspace',
  model: 'model',
  assessment: 'assessment',
  datastream: 'datastream',
  dataspec: 'dataspec',
  signals: 'signal',
  outputs: 'signal',
};

const WORD: Record<CatalogKind, [string, string]> = {
  workspace: ['workspace', 'workspaces'],
  model: ['model', 'models'],
  assessment: ['assessment', 'assessments'],
  datastream: ['datastream', 'datastreams'],
  signal: ['signal', 'signals'],
  dataspec: ['dataspec', 'dataspecs'],
  eval: ['Eval object', 'Eval objects'],
};

export interface NameQuery {
  teamId: string;
  kind: CatalogKind;
  /** The ID or the name as typed (without its quotes). */
  text: string;
  /**
   * Resources the command names as well (e.g. its workspace): they only choose among several entries
   * of the same name; a unique name resolves without them.
   */
  links?: CatalogLinks;
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
      /** One or two sentences for the user, naming the candidates' IDs. */
      message: string;
    };

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

const MAX_AMBIGUOUS = 10;

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
 * several, `links` may single one out; anything else is refused with the candidates. Never a guess.
 */
export async function resolveName(store: Store, q: NameQuery): Promise<NameResolution> {
  const text = q.text.trim();
  const [one, many] = WORD[q.kind];
  if (isServiceId(text)) {
    const known = await store.getCatalogEntry(q.teamId, q.kind, text);
    return { ok: true, id: text, ...(known?.name ? { name: known.name } : {}), by: 'id' };
  }
  const fail = (
    reason: 'ambiguous' | 'unknown',
    candidates: Candidate[],
    message: string,
  ): NameResolution => ({
    ok: false,
    reason,
    text,
    candidates,
    message,
  });
  if (catalogKey(text) === '') return fail('unknown', [], `Give ${article(one)} ${one} ID or name.`);
  if (/^\d+$/.test(text)) {
    return fail(
      'unknown',
      [],
      `\`${text}\` is not a valid ${one} ID: IDs are numbers of 18–19 digits, e.g. \`${EXAMPLE_IDS.workspace}\`. ${article(one) === 'an' ? 'An' : 'A'} ${one} may also be given by its name in quotes.`,
    );
  }

  const same = await store.findCatalogByName(q.teamId, q.kind, text, { limit: MAX_AMBIGUOUS });
  let match = same.length === 1 ? same[0] : undefined;
  if (same.length > 1 && q.links && Object.values(q.links).some(Boolean)) {
    const narrowed = await store.findCatalogByName(q.teamId, q.kind, text, { links: q.links, limit: 2 });
    if (narrowed.length === 1) match = narrowed[0];
  }
  if (match) return { ok: true, id: match.id, ...(match.name ? { name: match.name } : {}), by: 'name' };
  if (same.length > 1) {
    const candidates = same.map(toCandidate);
    return fail(
      'ambiguous',
      candidates,
      `${same.length >= MAX_AMBIGUOUS ? 'Several' : same.length} ${many} are named "${text}": ${listed(candidates).join(', ')}. Give the ID instead.`,
    );
  }
  const closest = (await closestEntries(store, q, text)).map(toCandidate);
  return fail(
    'unknown',
    closest,
    closest.length
      ? `No ${one} named "${text}" is known. Closest: ${listed(closest).join(', ')}. Give the exact name in quotes or the ID.`
      : `No ${one} named "${text}" is known to the bot. Give the ${one} ID instead.`,
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
    for (const e of await store.searchCatalog({ teamId: q.teamId, kind: q.kind, text: t, limit: 50 })) add(e);
  }
  for (const e of await store.searchCatalog({ teamId: q.teamId, kind: q.kind, limit: RECENT_POOL })) {
    if (e.name && editDistance(key, catalogKey(e.name)) <= closeEnough(key)) add(e);
  }
  return [...pool.values()]
    .sort((a, b) => a.d - b.d || b.e.lastUsedAt - a.e.lastUsedAt)
    .slice(0, MAX_SUGGESTIONS)
    .map((x) => x.e);
}

export interface ResolvedName {
  key: string;
  text: string;
  id: string;
  name?: string;
}

export type ArgumentsResolution =
  | {
      ok: true;
      /** The arguments with every name replaced by its ID (signals as `id:label`). */
      args: Record<string, string>;
      /** The names that were resolved, for the reply. */
      resolved: ResolvedName[];
    }
  | { ok: false; key: string; resolution: Extract<NameResolution, { ok: false }>; message: string };

/** Links pass on down this order: a workspace or assessment named first helps single out a model. */
const ORDER = ['workspace', 'assessment', 'model', 'datastream', 'dataspec', 'signals', 'outputs'];
const ID_ITEM = /^\d{18,19}(:|$)/;

/**
 * Replaces names by IDs in command arguments (canonical key -> value, as the grammar reads them).
 * Keys that are not resources, and values that are IDs already, pass through unchanged. In `signals=`
 * and `outputs=`, each comma-separated item that does not start with an ID is a signal name; a signal
 * gets its catalog name as label (outputs keep the service's default, since their label is the model's
 * output name). The first name that does not resolve stops it.
 */
export async function resolveArguments(
  store: Store,
  teamId: string,
  args: Readonly<Record<string, string | undefined>>,
): Promise<ArgumentsResolution> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) if (v !== undefined) out[k] = v;
  const resolved: ResolvedName[] = [];
  const links: CatalogLinks = {};
  const keys = Object.keys(out).sort((a, b) => rank(a) - rank(b));
  for (const key of keys) {
    const kind = CATALOG_KIND_BY_KEY[key];
    if (!kind) continue;
    const value = out[key]!;
    if (kind === 'signal') {
      const items: string[] = [];
      for (const raw of value.split(',')) {
        const item = raw.trim();
        if (item === '' || ID_ITEM.test(item)) {
          items.push(item);
          continue;
        }
        const r = await resolveName(store, { teamId, kind, text: item });
        if (!r.ok) return refused(key, r);
        resolved.push({ key, text: item, id: r.id, ...(r.name ? { name: r.name } : {}) });
        items.push(key === 'signals' && r.name ? `${r.id}:${r.name}` : r.id);
      }
      out[key] = items.join(',');
      continue;
    }
    const text = value.trim();
    if (isServiceId(text)) {
      if (key === 'workspace' || key === 'assessment' || key === 'model') links[key] = text;
      continue;
    }
    const r = await resolveName(store, { teamId, kind, text: value, links: { ...links } });
    if (!r.ok) return refused(key, r);
    out[key] = r.id;
    resolved.push({ key, text, id: r.id, ...(r.name ? { name: r.name } : {}) });
    if (key === 'workspace' || key === 'assessment' || key === 'model') links[key] = r.id;
  }
  return { ok: true, args: out, resolved };
}

const rank = (key: string) => {
  const i = ORDER.indexOf(key);
  return i < 0 ? ORDER.length : i;
};

function refused(key: string, resolution: Extract<NameResolution, { ok: false }>): ArgumentsResolution {
  return { ok: false, key, resolution, message: `\`${key}=\`: ${resolution.message}` };
}

export type CommandNamesResolution =
  | {
      ok: true;
      /** For the grammar's second reading of the command. */
      names: ResolvedNames;
      /** What each name stood for, for the reply (`describeResolved`). */
      resolved: ResolvedName[];
    }
  | { ok: false; key: string; message: string };

/**
 * The names a command gives in quotes where IDs go (the grammar's `names` outcome), looked up in the
 * team's catalog with `resolveArguments`: the IDs the command gives as well single out one of several
 * resources of the same name. The first name that is unknown or ambiguous refuses the command, with the
 * candidates.
 */
export async function resolveCommandNames(
  store: Store,
  teamId: string,
  command: { names: readonly NameRef[]; ids: Readonly<Record<string, string>> },
): Promise<CommandNamesResolution> {
  const args: Record<string, string> = {};
  for (const [key, id] of Object.entries(command.ids)) if (CATALOG_KIND_BY_KEY[key]) args[key] = id;
  for (const n of command.names) {
    if (!CATALOG_KIND_BY_KEY[n.key]) continue;
    const kind = CATALOG_KIND_BY_KEY[n.key];
    args[n.key] = kind === 'signal' && args[n.key] ? `${args[n.key]},${n.text}` : n.text;
  }
  const out = await resolveArguments(store, teamId, args);
  if (!out.ok) return { ok: false, key: out.key, message: out.message };
  const names = new Map<string, { id: string; name?: string }>();
  for (const r of out.resolved)
    names.set(nameKey(r.key, r.text), { id: r.id, ...(r.name ? { name: r.name } : {}) });
  return { ok: true, names, resolved: out.resolved };
}

/** The line a reply carries to say what the names stood for: `workspace "Pump station A" → \`1353…\``. */
export function describeResolved(resolved: readonly ResolvedName[]): string | undefined {
  if (resolved.length === 0) return undefined;
  const parts = resolved.map(
    (r) => `${WORD[CATALOG_KIND_BY_KEY[r.key] ?? 'workspace'][0]} "${r.text}" → \`${r.id}\``,
  );
  return `Names resolved: ${parts.join(', ')}.`;
}

import type { Location } from './location.js';
import { MoveRefused } from './refusal.js';
import type { Table } from './side.js';

/**
 * The schema version the move is made at: the source's, which the target is brought to (never the other
 * way: the source is only read). Refused when the two cannot meet there.
 */
export function versionToMoveAt(
  from: Location,
  to: Location,
  v: { source: readonly number[]; target: readonly number[]; known: readonly number[] },
): number {
  const source = v.source.at(-1);
  const newest = v.known.at(-1) ?? 0;
  if (source === undefined)
    throw new MoveRefused(
      `${from.said} holds no bot store: the bot never set it up (it has no schema_migrations table).`,
      'Check --from: it must name the store the bot ran on, as its DATABASE_URL does.',
    );
  if (source > newest)
    throw new MoveRefused(
      `${from.said} was written by a newer version of the bot (schema version ${source}; this one knows up to ${newest}).`,
      'Run the store:move of the bot version that wrote it.',
    );
  const missing = v.known.filter((k) => k <= source && !v.source.includes(k));
  if (missing.length > 0)
    throw new MoveRefused(
      `${from.said} lacks schema versions ${missing.join(', ')} although it is at ${source}.`,
      'Start the bot on it once so that it applies them, stop it, and move again.',
    );
  const target = v.target.at(-1) ?? 0;
  if (target > source || v.target.some((t) => !v.source.includes(t)))
    throw new MoveRefused(
      `${to.said} is at schema version ${target}, and the source at ${source}: a newer bot set the target up.`,
      `Move into an empty database, or start the newer bot on the source once (it brings the source to version ${target}), stop it, and move again.`,
    );
  return source;
}

/** Every table of the source the target lacks, and every column of theirs only one side has, in words. */
export function shapeDifferences(source: readonly Table[], target: readonly Table[]): string[] {
  const out: string[] = [];
  const targets = new Map(target.map((t) => [t.name, t]));
  for (const s of source) {
    const t = targets.get(s.name);
    if (!t) {
      out.push(`table ${s.name} is only in the source`);
      continue;
    }
    const names = (x: Table) => new Set(x.columns.map((c) => c.name));
    for (const c of names(s)) if (!names(t).has(c)) out.push(`${s.name}.${c} is only in the source`);
    for (const c of names(t)) if (!names(s).has(c)) out.push(`${s.name}.${c} is only in the target`);
  }
  return out;
}

export function refuseDifferentShapes(differences: readonly string[], version: number): void {
  if (differences.length === 0) return;
  throw new MoveRefused(
    `The two stores’ tables differ although both are at schema version ${version}: ${differences.join('; ')}.`,
    'One of them was changed by hand: make them match, or move into an empty database.',
  );
}

/** A target that holds anything is refused unless `force` says to replace it. */
export function refuseNonEmpty(
  to: Location,
  counts: readonly { name: string; rows: number }[],
  force: boolean,
): void {
  const held = counts.filter((c) => c.rows > 0);
  if (held.length === 0 || force) return;
  const named = held.slice(0, 5).map((c) => `${c.name}: ${c.rows.toLocaleString('en-US')}`);
  const more = held.length > 5 ? ` and ${held.length - 5} more tables` : '';
  throw new MoveRefused(
    `${to.said} already holds rows (${named.join(', ')}${more}), and a move does not mix two stores.`,
    'Move into an empty database, or add --force to replace everything it holds with the source’s.',
  );
}

import { MIGRATIONS } from '../migrations.js';
import { refuseDifferentShapes, refuseNonEmpty, shapeDifferences, versionToMoveAt } from './checks.js';
import { copyAndVerify, type TableMoved } from './copy.js';
import { blamed, explain } from './explain.js';
import { type Location, locate } from './location.js';
import { MoveRefused } from './refusal.js';
import type { Side, Table } from './side.js';

export interface MoveOptions {
  /** Where the bot's store is, written as DATABASE_URL is. */
  from: string;
  /** Where it goes: an empty store, or any with `force`. */
  to: string;
  /** Replace whatever the target holds. */
  force?: boolean;
  onTable?: (name: string, rows: number) => void;
}

export interface MoveReport {
  from: string;
  to: string;
  /** The schema version both stores are at now. */
  version: number;
  /** The target's version before the move (0: never set up). */
  targetWas: number;
  /** Rows the target held that the move replaced (with force). */
  replaced: number;
  tables: TableMoved[];
}

/**
 * Moves everything the bot keeps from one store to another, with the bot stopped: every table of its
 * schema as the source's database describes it, value for value (encrypted values as they are, under the
 * same key), the target brought to the source's schema version first, the copy verified before it is kept.
 */
export async function moveStore(o: MoveOptions): Promise<MoveReport> {
  const from = locate(o.from, '--from');
  const to = locate(o.to, '--to');
  if (from.identity === to.identity)
    throw new MoveRefused(
      `--from and --to both name ${from.said}.`,
      'Name the store the bot ran on with --from, and the new one with --to.',
    );
  const source = await opened(from, 'source');
  try {
    const target = await opened(to, 'target');
    try {
      return await moveBetween({ from, to, source, target }, o);
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/** Every secret the two named stores carry, for whatever prints what happened. */
export function secretsOf(o: Pick<MoveOptions, 'from' | 'to'>): string[] {
  const of = (value: string, flag: '--from' | '--to') => {
    try {
      return locate(value, flag).secrets;
    } catch {
      return [];
    }
  };
  return [...of(o.from, '--from'), ...of(o.to, '--to')];
}

async function opened(where: Location, role: 'source' | 'target'): Promise<Side> {
  try {
    return blamed(await where.open(role), where);
  } catch (err) {
    throw explain(err, where);
  }
}

type Ends = { from: Location; to: Location; source: Side; target: Side };

async function moveBetween({ from, to, source, target }: Ends, o: MoveOptions): Promise<MoveReport> {
  const targetVersions = await target.versions();
  const version = versionToMoveAt(from, to, {
    source: await source.versions(),
    target: targetVersions,
    known: MIGRATIONS.map((m) => m.version),
  });
  await source.begin('read');
  try {
    const tables = await source.tables();
    // The bot's tables are the source's: whatever else the target's database holds is left alone.
    const ours = (all: readonly Table[]) => all.filter((t) => tables.some((s) => s.name === t.name));
    const held: { name: string; rows: number }[] = [];
    for (const t of ours(await target.tables())) held.push({ name: t.name, rows: await target.count(t) });
    refuseNonEmpty(to, held, o.force ?? false);
    await target.migrate(version);
    const targetTables = ours(await target.tables());
    refuseDifferentShapes(shapeDifferences(tables, targetTables), version);
    const replaced = held.reduce((n, t) => n + t.rows, 0);
    const moved = await copyAndVerify({
      source,
      target,
      tables,
      targetTables,
      replace: replaced > 0,
      ...pick(o),
    });
    return {
      from: from.said,
      to: to.said,
      version,
      targetWas: targetVersions.at(-1) ?? 0,
      replaced,
      tables: moved,
    };
  } finally {
    await source.rollback();
  }
}

const pick = (o: MoveOptions) => (o.onTable ? { onTable: o.onTable } : {});

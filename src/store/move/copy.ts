import { Digest } from './digest.js';
import { MoveRefused } from './refusal.js';
import { aligned, type Side, type Table } from './side.js';

/** One table as moved: its rows and their checksum, found the same on both sides. */
export interface TableMoved {
  name: string;
  rows: number;
  checksum: string;
}

export interface CopyPlan {
  source: Side;
  target: Side;
  /** The source's tables; the target has each of them, with the same columns. */
  tables: readonly Table[];
  targetTables: readonly Table[];
  /** Empty every table of the target first (the person said to replace what it holds). */
  replace: boolean;
  /** Told as each table is copied (before the whole is verified and kept). */
  onTable?: (name: string, rows: number) => void;
}

/**
 * Copies every table in one transaction of the target, verifies it there (every table read back, its
 * count and checksum against the source's) and only then commits: a move cut short, or one whose copy
 * does not match, leaves the target as it was, so running it again doubles nothing.
 */
export async function copyAndVerify(plan: CopyPlan): Promise<TableMoved[]> {
  const { source, target } = plan;
  const targets = new Map(
    plan.tables.map((t) => [t.name, plan.targetTables.find((x) => x.name === t.name)!]),
  );
  await target.begin('write');
  try {
    if (plan.replace) for (const t of plan.targetTables) await target.clear(t);
    const sent: [Table, Table, Digest][] = [];
    for (const from of plan.tables) {
      const into = aligned(
        targets.get(from.name)!,
        from.columns.map((c) => c.name),
      );
      const digest = new Digest(jsonColumns(from, into));
      for await (const batch of source.rows(from)) {
        digest.add(batch);
        await target.insert(into, batch);
      }
      await target.advanceSerial(into, await source.serialMark(from));
      sent.push([from, into, digest]);
      plan.onTable?.(from.name, digest.rows);
    }
    const moved = await verify(target, sent);
    await target.commit();
    return moved;
  } catch (err) {
    await target.rollback();
    throw err;
  }
}

async function verify(target: Side, sent: readonly [Table, Table, Digest][]): Promise<TableMoved[]> {
  const unlike: string[] = [];
  for (const [from, into, digest] of sent) {
    const found = new Digest(jsonColumns(from, into));
    for await (const batch of target.rows(into)) found.add(batch);
    if (found.same(digest)) continue;
    unlike.push(
      found.rows === digest.rows
        ? `${from.name} (its rows read back with other values)`
        : `${from.name} (${digest.rows} rows sent, ${found.rows} read back)`,
    );
  }
  if (unlike.length > 0)
    throw new MoveRefused(
      `The copy did not match the source in ${unlike.join(', ')}, so the target keeps nothing of it.`,
      'The source is untouched and the bot can go on with it. Report this to the bot’s maintainers.',
    );
  return sent.map(([from, , digest]) => ({ name: from.name, rows: digest.rows, checksum: digest.checksum }));
}

/** The columns that hold JSON on either side (compared as the values they encode). */
const jsonColumns = (from: Table, into: Table): boolean[] =>
  from.columns.map((c, i) => c.class === 'json' || into.columns[i]!.class === 'json');

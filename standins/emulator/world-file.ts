import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { FlowEnding, FlowLifecycle } from './lifecycle.js';
import { type People, type StoredPerson, storedPerson } from './people.js';
import { COLLECTIONS, type Store, type StoredRecords } from './store.js';

/**
 * What the emulator keeps across restarts: the service's records, where each unfinished flow is going,
 * and the people with their tokens' digests.
 */
export interface World extends StoredRecords {
  endings: Record<string, FlowEnding>;
  people: StoredPerson[];
}

const record = z.looseObject({ id: z.string(), type: z.string() });
const worldFile = z.object({
  world: z.literal(1),
  nextId: z.string().regex(/^\d+$/),
  // A collection the file lacks was added to the emulator after it was written: that file still loads,
  // and the collection starts as the demo data has it (Store.load).
  records: z.object(Object.fromEntries(COLLECTIONS.map((c) => [c, z.array(record).optional()]))),
  endings: z.record(z.string(), z.object({ status: z.string().optional(), message: z.string().optional() })),
  // Absent from files written before the emulator knew people.
  people: z.array(storedPerson).default([]),
});

export type LoadedWorld = { world?: World; problem?: string };

/**
 * The world kept in `file`: none when there is no file yet; a file that cannot be read as one is set
 * aside (renamed `….unreadable`) with a problem to report, and the emulator starts from its demo data.
 */
export function loadWorld(file: string): LoadedWorld {
  if (!existsSync(file)) return {};
  let parsed: ReturnType<typeof worldFile.safeParse>;
  try {
    parsed = worldFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (e) {
    return setAside(file, e instanceof Error ? e.message : String(e));
  }
  if (!parsed.success) return setAside(file, 'it is not an emulator state file');
  const { world: _version, ...world } = parsed.data;
  return { world: world as World };
}

function setAside(file: string, why: string): LoadedWorld {
  const aside = `${file}.unreadable`;
  try {
    renameSync(file, aside);
  } catch {
    return { problem: `the emulator state file ${file} could not be read (${why}); it will be written anew` };
  }
  return { problem: `the emulator state file ${file} could not be read (${why}); it was moved to ${aside}` };
}

/**
 * Keeps the emulator's world in `file`: loaded now (flows that had not ended go on to their ending),
 * written after every change. `close` writes what is pending and stops keeping it.
 */
export function keepWorld(
  file: string,
  { store, flows, people }: { store: Store; flows: FlowLifecycle; people: People },
  report: (problem: string) => void,
): { close(): void } {
  const loaded = loadWorld(file);
  if (loaded.problem) report(loaded.problem);
  if (loaded.world) {
    store.load(loaded.world);
    flows.resume(loaded.world.endings);
    people.load(loaded.world.people);
  }
  const saver = new WorldSaver(
    file,
    () => ({ ...store.stored(), endings: flows.plannedEndings(), people: people.stored() }),
    report,
  );
  store.onChange = () => saver.changed();
  people.onChange = () => saver.changed();
  return {
    close() {
      store.onChange = () => {};
      people.onChange = () => {};
      saver.flush();
    },
  };
}

/**
 * Writes the world at most once per `delayMs`, after the change that asked for it, and atomically: a
 * whole new file renamed over the old one, so a crash mid-write leaves the previous world, not half of one.
 */
export class WorldSaver {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    private readonly world: () => World,
    private readonly report: (problem: string) => void,
    private readonly delayMs = 200,
  ) {}

  changed(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.delayMs);
    this.timer.unref();
  }

  /** Writes now whatever is pending. */
  flush(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.write();
  }

  private write(): void {
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const next = `${this.file}.${process.pid}.tmp`;
      writeFileSync(next, JSON.stringify({ world: 1, ...this.world() }));
      renameSync(next, this.file);
    } catch (e) {
      this.report(
        `the emulator state could not be written to ${this.file}: ${e instanceof Error ? e.message : e}`,
      );
    }
  }
}

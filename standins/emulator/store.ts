import { FIRST_RUNTIME_ID, type Rec, SEED, seedRecords } from './seed.js';

export const COLLECTIONS = [
  'workspaces',
  'datastreams',
  'signals',
  'assessments',
  'models',
  'dataspecs',
  'flows',
  'evals',
] as const;
export type Collection = (typeof COLLECTIONS)[number];

/** Where a record can be read back with GET: only those collections get a `self` link. */
const SELF_PATH: Partial<Record<Collection, (a: string, id: string) => string>> = {
  workspaces: (a, id) => `/api/1.3/accounts/${a}/workspace/${id}`,
  flows: (a, id) => `/api/1.3/accounts/${a}/flows/${id}`,
};

/**
 * Everything the store holds, as plain data: what a state file keeps across restarts. A collection the
 * records lack (a file written before it existed) is loaded as the demo data has it.
 */
export interface StoredRecords {
  /** The next ID to hand out (a decimal string: IDs exceed 2^53). */
  nextId: string;
  records: Partial<Record<Collection, Rec[]>>;
}

/** In-memory records of one account, stamped the way Part 2 of the spec describes. */
export class Store {
  private readonly data = new Map<Collection, Map<string, Rec>>();
  private nextId: bigint;
  /** Called after every change (a record created or updated, a reset, records loaded). */
  onChange: () => void = () => {};
  /** Who records created or updated now are stamped as made by (`createdBy`/`updatedBy`). */
  private actor: string = SEED.principalId;

  constructor(
    readonly accountId: string,
    private readonly now: () => number = Date.now,
    firstId?: string,
  ) {
    this.nextId = firstId === undefined ? firstIdOf(accountId) : BigInt(firstId);
    this.reset();
  }

  /**
   * Back to the demo data. IDs handed out before are not handed out again, as a real service never
   * reuses one: a bot that followed flow …001 before a reset must not meet a different …001 after it.
   */
  reset(): void {
    for (const c of COLLECTIONS) this.data.set(c, new Map());
    const seed = seedRecords();
    const t = this.now();
    for (const [c, recs] of Object.entries(seed) as [Collection, Rec[]][])
      for (const r of recs) this.put(c, this.stamp(c, r, t, SEED.principalId));
    this.onChange();
  }

  /** Replaces every record with those kept before; IDs go on from where they were. */
  load(kept: StoredRecords): void {
    const seed: Partial<Record<Collection, Rec[]>> = seedRecords();
    const t = this.now();
    for (const c of COLLECTIONS) {
      const recs = kept.records[c] ?? (seed[c] ?? []).map((r) => this.stamp(c, r, t, SEED.principalId));
      this.data.set(c, new Map(recs.map((r) => [r.id, r])));
    }
    const next = BigInt(kept.nextId);
    if (next > this.nextId) this.nextId = next;
    this.onChange();
  }

  /** A deep copy of every record and the next ID. */
  stored(): StoredRecords {
    return { nextId: this.nextId.toString(), records: structuredClone(this.snapshot()) };
  }

  newId(): string {
    const id = this.nextId.toString();
    this.nextId += 1n;
    return id;
  }

  /** Runs `change` with every record it creates or updates stamped as made by `principal`. */
  actingAs<T>(principal: string, change: () => T): T {
    const before = this.actor;
    this.actor = principal;
    try {
      return change();
    } finally {
      this.actor = before;
    }
  }

  get(c: Collection, id: string): Rec | undefined {
    return this.data.get(c)!.get(id);
  }

  all(c: Collection): Rec[] {
    return [...this.data.get(c)!.values()];
  }

  /** Creates a record: assigns a fresh 19-digit ID and the common fields. */
  create(c: Collection, fields: Omit<Rec, 'id'>): Rec {
    const rec = this.stamp(c, { ...fields, id: this.newId() } as Rec, this.now(), this.actor);
    this.put(c, rec);
    this.onChange();
    return rec;
  }

  update(c: Collection, id: string, changes: Record<string, unknown>): Rec {
    const rec = this.get(c, id);
    if (!rec) throw new Error(`no ${c} ${id}`);
    Object.assign(rec, changes, { updateTime: this.now(), updatedBy: this.actor });
    this.onChange();
    return rec;
  }

  snapshot(): Record<Collection, Rec[]> {
    return Object.fromEntries(COLLECTIONS.map((c) => [c, this.all(c)])) as Record<Collection, Rec[]>;
  }

  private put(c: Collection, rec: Rec): void {
    this.data.get(c)!.set(rec.id, rec);
  }

  private stamp(c: Collection, rec: Rec, t: number, by: string): Rec {
    const self = SELF_PATH[c];
    return {
      ...rec,
      tenant: this.accountId,
      createTime: t,
      updateTime: t,
      createdBy: by,
      updatedBy: by,
      archived: false,
      links: self ? [{ rel: 'self', href: self(this.accountId, rec.id) }] : [],
    };
  }
}

/**
 * Where an account's new IDs start: a real service hands out IDs unique across all its accounts, so two
 * emulators standing for two accounts (two tenants of the bot) never hand out the same one. The demo
 * account's stay where they always were.
 */
function firstIdOf(accountId: string): bigint {
  if (accountId === SEED.accountId) return FIRST_RUNTIME_ID;
  let h = 0;
  for (const c of accountId) h = (h * 31 + c.charCodeAt(0)) % 1_000_000;
  return FIRST_RUNTIME_ID + BigInt(h + 1) * 10_000_000_000n;
}

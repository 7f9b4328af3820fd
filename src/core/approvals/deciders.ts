import type { Membership } from '../principals.js';

/** Who may decide a request: a rule's members, and the IDs to name in "ask one of …". */
export interface Deciders {
  readonly users: readonly string[];
  readonly groups: readonly string[];
  readonly isEmpty: boolean;
  has(userId: string): Promise<boolean>;
}

/**
 * The strictest of several rules: only someone each of them allows decides. Named for "ask one of …" are
 * the users and groups every rule names itself; a member of a group one rule names and a user another
 * names may decide, but is not listed.
 */
export class EveryRule implements Deciders {
  readonly users: readonly string[];
  readonly groups: readonly string[];

  constructor(private readonly rules: readonly Membership[]) {
    const inAll = (pick: (m: Membership) => readonly string[]) =>
      (rules[0] ? pick(rules[0]) : []).filter((id) => rules.every((m) => pick(m).includes(id)));
    this.users = inAll((m) => m.users);
    this.groups = inAll((m) => m.groups);
  }

  get isEmpty(): boolean {
    return this.users.length === 0 && this.groups.length === 0;
  }

  async has(userId: string): Promise<boolean> {
    for (const rule of this.rules) if (!(await rule.has(userId))) return false;
    return this.rules.length > 0;
  }
}

import { type Now, nowMs } from './clock.js';

/** Slack user IDs start with U or W, user-group IDs with S. */
export const isUserId = (id: string): boolean => /^[UW][A-Z0-9]{2,}$/.test(id);
export const isGroupId = (id: string): boolean => /^S[A-Z0-9]{2,}$/.test(id);
export const isChannelId = (id: string): boolean => /^[CGD][A-Z0-9]{2,}$/.test(id);

export type ExpandGroup = (groupId: string) => Promise<string[]>;

/**
 * Parses a configured list such as `U123, S456 <@U789> <!subteam^S111|@ops>`: commas or spaces,
 * Slack mention syntax tolerated. Returns the IDs and the entries that are not IDs.
 */
export function parseIdList(
  text: string | undefined,
  accept: (id: string) => boolean = (id) => isUserId(id) || isGroupId(id),
): { ids: string[]; invalid: string[] } {
  const ids: string[] = [];
  const invalid: string[] = [];
  for (const raw of (text ?? '').split(/[\s,]+/)) {
    if (raw === '') continue;
    const id = raw.replace(/^<[@#]|^<!subteam\^/, '').replace(/(\|[^>]*)?>$/, '');
    if (accept(id)) {
      if (!ids.includes(id)) ids.push(id);
    } else invalid.push(raw);
  }
  return { ids, invalid };
}

export interface MembershipOptions {
  /** How long an expanded group stays cached (ms); default 60 s. */
  cacheMs?: number;
  now?: Now;
  onGroupError?: (groupId: string, err: unknown) => void;
}

/** "Is this user one of these users or in one of these groups?", with groups expanded and cached briefly. */
export class Membership {
  readonly users: readonly string[];
  readonly groups: readonly string[];
  private readonly cache = new Map<string, { at: number; users: Promise<Set<string>> }>();

  constructor(
    ids: readonly string[],
    private readonly expandGroup: ExpandGroup,
    private readonly options: MembershipOptions = {},
  ) {
    this.users = ids.filter(isUserId);
    this.groups = ids.filter(isGroupId);
  }

  get isEmpty(): boolean {
    return this.users.length === 0 && this.groups.length === 0;
  }

  async has(userId: string): Promise<boolean> {
    if (this.users.includes(userId)) return true;
    for (const g of this.groups) if ((await this.members(g)).has(userId)) return true;
    return false;
  }

  private members(groupId: string): Promise<Set<string>> {
    const now = nowMs(this.options.now);
    const hit = this.cache.get(groupId);
    if (hit && now - hit.at < (this.options.cacheMs ?? 60_000)) return hit.users;
    const users = this.expandGroup(groupId).then(
      (list) => new Set(list),
      (err: unknown) => {
        // A failed lookup denies for now and is not cached, so the next click asks again.
        this.cache.delete(groupId);
        this.options.onGroupError?.(groupId, err);
        return new Set<string>();
      },
    );
    this.cache.set(groupId, { at: now, users });
    return users;
  }
}

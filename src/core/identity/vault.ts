/**
 * Each person's own service identity: the token they pasted into the Connect form, kept encrypted in the
 * store, readable in clear only through this interface. Core asks it whose token a call uses; the
 * surfaces ask it what to show (whoami, the Home tab).
 */

/** A person, as Slack names them: the workspace (team) and the user in it. */
export interface PersonRef {
  teamId: string;
  userId: string;
}

/**
 * Where a service account is: its URL and ID, and since when it is the one its tenant works with (ms; 0
 * for the account the operator configured, which has always been it).
 */
export interface ServicePlace {
  baseUrl: string;
  accountId: string;
  since: number;
}

/** What is known of a connection, without the token. */
export interface Connection {
  /** When the person connected (epoch ms). */
  since: number;
  /** The service account the token was checked against. */
  accountId: string;
  /** The service URL it was checked against; absent on tokens kept before it was. */
  serviceUrl?: string;
  /** The person's role in the service (Owner, Manager, User) when the service said so. */
  role?: string;
  /** Who the service says the token belongs to, when it said so. */
  serviceUser?: string;
}

/** A person's own token as it may be used with one service account: theirs, or set aside. */
export type BoundToken =
  | { kind: 'token'; token: string }
  /** Connected, but checked against another account or URL: never sent to this one. */
  | { kind: 'set-aside'; connection: Connection };

export interface IdentityVault {
  /** The person's own token in clear, or undefined when they have not connected (or it cannot be read). */
  tokenOf(person: PersonRef): Promise<string | undefined>;
  /** Their token for `place` only (`boundTo`), or undefined when they have not connected. */
  tokenFor(person: PersonRef, place: ServicePlace): Promise<BoundToken | undefined>;
  /** Their connection, or undefined when they have not connected. Never the token. */
  connection(person: PersonRef): Promise<Connection | undefined>;
  /** Keeps the token (encrypted) and what the check learnt of it, replacing an earlier one. */
  save(person: PersonRef, token: string, connection: Connection): Promise<void>;
  /** Deletes the person's token; true when there was one. */
  forget(person: PersonRef): Promise<boolean>;
}

/** A URL as compared: its origin and path, without a trailing slash. */
export function serviceUrlKey(url: string): string {
  try {
    const u = new URL(url.trim());
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url.trim().replace(/\/+$/, '');
  }
}

/**
 * Whether a token connected as `c` may be sent to the account at `place`: it was checked against that
 * account at that URL. A token kept before its URL was (none named) counts only if it was connected
 * since the account is where it is, so it was checked there; after the tenant's service changed, it is
 * set aside as the others are.
 */
export function boundTo(c: Connection, place: ServicePlace): boolean {
  if (c.accountId !== place.accountId) return false;
  return c.serviceUrl !== undefined
    ? serviceUrlKey(c.serviceUrl) === serviceUrlKey(place.baseUrl)
    : c.since >= place.since;
}

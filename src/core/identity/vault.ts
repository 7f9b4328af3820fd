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

/** What is known of a connection, without the token. */
export interface Connection {
  /** When the person connected (epoch ms). */
  since: number;
  /** The service account the token was checked against. */
  accountId: string;
  /** The person's role in the service (Owner, Manager, User) when the service said so. */
  role?: string;
  /** Who the service says the token belongs to, when it said so. */
  serviceUser?: string;
}

export interface IdentityVault {
  /** The person's own token in clear, or undefined when they have not connected (or it cannot be read). */
  tokenOf(person: PersonRef): Promise<string | undefined>;
  /** Their connection, or undefined when they have not connected. Never the token. */
  connection(person: PersonRef): Promise<Connection | undefined>;
  /** Keeps the token (encrypted) and what the check learnt of it, replacing an earlier one. */
  save(person: PersonRef, token: string, connection: Connection): Promise<void>;
  /** Deletes the person's token; true when there was one. */
  forget(person: PersonRef): Promise<boolean>;
}

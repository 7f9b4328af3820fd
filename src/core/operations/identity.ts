import { createHash } from 'node:crypto';
import type { ServiceCalls, ServiceClient } from '../../api/index.js';
import type { IdentityVault, PersonRef, ServicePlace } from '../identity/vault.js';
import type { OpFailure } from '../outcome.js';
import { SERVICE_ROLES } from './registry/entry.js';
import { entryOfOperation } from './registry/index.js';

/** Whose identity a service call used: the person's own token, or the bot's shared one. */
export type ActedAs = 'own' | 'shared';

/** How the audit log and the surfaces name an identity (never the token). */
export const ACTED_AS_TEXT: Record<ActedAs, string> = {
  own: 'own token',
  shared: "the bot's shared identity",
};

export type IdentityChoice =
  | { ok: true; service: ServiceCalls; actedAs: ActedAs; person: PersonRef; tokenId?: string }
  | { ok: false; refusal: OpFailure };

export interface ServiceIdentityDeps {
  /**
   * The service account the calls go to, and where it is: the bot's one, or ("Add to Slack") the
   * tenant's own (core/tenancy/accounts.ts), read at each call; undefined while the tenant has connected
   * none. A person's token is sent only where it was checked (`boundTo`).
   */
  account: () => Promise<ServiceAccountOf | undefined>;
  /** Each person's own token; absent: nobody is connected. */
  vault?: IdentityVault;
  /** Whether the bot has a shared token (TSAI_TOKEN), or the tenant's account acts for its people. */
  sharedToken: boolean;
  /** Operations run only with a person's own token (TSAI_REQUIRE_USER_TOKEN). */
  requireUserToken: boolean;
  /**
   * `team:user` -> the token the service turned down, by a digest of it (never the token): a new token,
   * however soon after, is tried again. Shared by every tenant's identity.
   */
  rejected?: Map<string, string>;
}

/** A service account's client and where it is. */
export interface ServiceAccountOf {
  client: ServiceClient;
  place: ServicePlace;
}

/**
 * Which token a call on a person's behalf uses: theirs when they are connected; otherwise the bot's shared
 * one when there is one and own tokens are not required; otherwise none, and the person is asked to
 * connect. A token the service turned down (401) is not sent again: the person is told once, with a way to
 * reconnect, and later attempts are refused before anything is sent until they connect again.
 */
export class ServiceIdentity {
  private readonly rejected: Map<string, string>;

  constructor(private readonly deps: ServiceIdentityDeps) {
    this.rejected = deps.rejected ?? new Map();
  }

  async forPerson(person: PersonRef): Promise<IdentityChoice> {
    const { vault } = this.deps;
    const account = await this.deps.account();
    if (!account) return { ok: false, refusal: NOT_SET_UP };
    const service = account.client;
    const own = vault ? await vault.tokenFor(person, account.place) : undefined;
    if (own?.kind === 'set-aside') return { ok: false, refusal: connectFirst('set-aside') };
    if (own) {
      const tokenId = digestOf(own.token);
      if (this.rejected.get(keyOf(person)) === tokenId)
        return { ok: false, refusal: connectFirst('still-rejected') };
      return { ok: true, service: service.as(own.token), actedAs: 'own', person, tokenId };
    }
    if (this.deps.sharedToken && !this.deps.requireUserToken)
      return { ok: true, service, actedAs: 'shared', person };
    return { ok: false, refusal: connectFirst('not-connected') };
  }

  /**
   * For work nobody is waiting on (following a flow): the shared identity where there is one, else the
   * token of the person who started it; undefined when there is neither.
   */
  async forBackground(starter: PersonRef | undefined): Promise<ServiceCalls | undefined> {
    const account = await this.deps.account();
    if (!account) return undefined;
    if (this.deps.sharedToken) return account.client;
    const own = starter && (await this.deps.vault?.tokenFor(starter, account.place));
    return own?.kind === 'token' ? account.client.as(own.token) : undefined;
  }

  /**
   * What a failure means for whose token was used: a 401 on a person's own token asks them (once) to
   * reconnect; a 403 names the role the operation needs. A 401 on the shared token is the operator's
   * problem and stays as the client said it.
   */
  explain(choice: Extract<IdentityChoice, { ok: true }>, failure: OpFailure, roleNeeded?: string): OpFailure {
    if (failure.status === 401 && choice.actedAs === 'own') {
      const key = keyOf(choice.person);
      const told = this.rejected.get(key) === choice.tokenId;
      this.rejected.set(key, choice.tokenId ?? '');
      return told ? connectFirst('still-rejected') : { ...connectFirst('rejected'), status: 401 };
    }
    if (failure.status === 403) return { ...failure, message: roleMessage(failure.message, roleNeeded) };
    return failure;
  }
}

/**
 * The roles that may do an operation, as its entry declares the least of them, for a 403's sentence:
 * `Manager or Owner`. None for what any role may do.
 */
export function roleNeededFor(op: { kind: string }): string | undefined {
  const role = entryOfOperation(op.kind)?.role;
  if (!role || role === SERVICE_ROLES[0]) return undefined;
  return SERVICE_ROLES.slice(SERVICE_ROLES.indexOf(role)).join(' or ');
}

function digestOf(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 16);
}

function keyOf(p: PersonRef): string {
  return `${p.teamId}:${p.userId}`;
}

/** A tenant whose admins have not connected its service account yet: nothing can be sent for it. */
const NOT_SET_UP: OpFailure = {
  ok: false,
  message:
    'Nothing was sent to the service: this Slack workspace is not connected to a service account yet. One of its admins connects it with `/tsai setup`; then run the same command again.',
};

type ConnectReason = 'not-connected' | 'rejected' | 'still-rejected' | 'set-aside';

const CONNECT_MESSAGES: Record<ConnectReason, string> = {
  'set-aside':
    "Nothing was sent to the service: your own token was connected for the service account this Slack workspace worked with before, and it is never sent anywhere else. This workspace's admins have changed its service since; connect again with a token of the one it uses now (`/tsai connect`), then run the same command again.",
  'not-connected':
    "Nothing was sent to the service: this bot acts with your own service identity, and you have not connected it yet. Connect (a token you create in the service's user interface), then run the same command again.",
  rejected:
    "The service no longer accepts your token (it expired or was revoked), so nothing was done. Create a new token in the service's user interface, reconnect, then run the same command again.",
  'still-rejected':
    'Nothing was sent to the service: it turned down your token earlier. Reconnect with a new token (`/tsai connect`), then run the same command again.',
};

/** What a person without a usable identity lacks, said of them (a paused schedule's reason). */
const CONNECT_LOST: Record<ConnectReason, string> = {
  'set-aside': "has a service token of the workspace's former service account, set aside since it changed",
  'not-connected': 'has not connected their own service token, which this bot requires',
  rejected: 'has a service token the service no longer accepts',
  'still-rejected': 'has a service token the service no longer accepts',
};

function connectFirst(reason: ConnectReason): OpFailure {
  return {
    ok: false,
    message: CONNECT_MESSAGES[reason],
    lost: CONNECT_LOST[reason],
    ...(reason === 'still-rejected'
      ? {}
      : { connect: reason === 'rejected' || reason === 'set-aside' ? 'reconnect' : 'connect' }),
  };
}

/**
 * The service's 403 sentence, with the role the operation needs: the one the service named, else the one
 * the bot knows the operation needs, else the roles in general.
 */
function roleMessage(said: string, roleNeeded: string | undefined): string {
  const named = /\b(owner|manager)\b/i.exec(said)?.[1];
  const role = named ? capitalised(named) : roleNeeded;
  if (!role)
    return `${said} Ask an Owner of the service account for a role that allows it, then run the same command again.`;
  return `${said} This needs the ${role} role in the service: ask an Owner of the service account for it, or ask someone who has it to run the command.`;
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

import type { PersonRef } from '../identity/vault.js';
import type { IdentityChoice, ServiceIdentity } from '../operations/identity.js';
import type { OpFailure } from '../outcome.js';
import type { SlackRights } from './admin.js';

/**
 * The first step of the gate: who the operation acts for, as Slack and the service know them now. Their
 * standing in Slack (through a port the Slack surface implements), the service account their team's
 * operations use (the tenant), and the identity they act with there.
 */

/**
 * A person's account as Slack says it is now: `deactivated` (Slack's `deleted: true`, which covers a
 * deactivated and a deleted account), `gone` (Slack no longer knows the ID), `unknown` (Slack did not
 * answer, or there is no Slack to ask). Only Slack's own word refuses: an outage must not stop the bot.
 */
export type Standing = 'active' | 'deactivated' | 'gone' | 'unknown';

/** The port the Slack surface implements (`users.info`, cached briefly). */
export interface SlackStanding {
  standingOf(person: PersonRef): Promise<Standing>;
  /**
   * What Slack says of the person's rights in their tenant at this moment (`users.info` asked anew, never
   * from a cache): undefined when Slack did not answer. Absent: nobody has any.
   */
  rightsOf?(person: PersonRef): Promise<SlackRights | undefined>;
}

/**
 * A service account, and whose tokens act with it: the bot's one (TSAI_TOKEN and the people's own
 * tokens), or ("Add to Slack") an installation's own. The Slack surface reads which installation a request
 * was authorised as (slack/tenant.ts, `teamOf`) into the actor's team; `Tenancy` names the tenant of that
 * team, and everything after authenticate acts with that tenant's identity.
 */
export interface Tenant {
  id: string;
  identity: ServiceIdentity;
}

export interface Tenancy {
  tenantOf(teamId: string | undefined): Tenant;
  /**
   * Whether every team's calls go to one service (one bot token), where a service ID names one resource
   * whichever team used it; with "Add to Slack" each tenant has its own, and another tenant's ID is
   * another resource.
   */
  readonly sharedService: boolean;
}

/** The bot's one service account, for every team. */
export function singleTenant(identity: ServiceIdentity): Tenancy {
  const tenant: Tenant = { id: 'default', identity };
  return { tenantOf: () => tenant, sharedService: true };
}

/**
 * "Add to Slack": each installation (a workspace, or an organisation installed org-wide) is a tenant,
 * acting with the service account its admins connected (`identityOf` reads it at each call); a request
 * with no installation has no account, and its identity refuses before anything is sent.
 */
export function tenantPerInstallation(identityOf: (tenant: string) => ServiceIdentity): Tenancy {
  return {
    tenantOf: (teamId) => {
      const id = teamId ?? '';
      return { id, identity: identityOf(id) };
    },
    sharedService: false,
  };
}

/** Who an operation acts for, once authenticated. */
export interface Principal {
  person: PersonRef;
  tenant: Tenant;
  standing: Standing;
  /** The identity service calls are made with; absent for operations on the bot's own state. */
  identity?: Extract<IdentityChoice, { ok: true }>;
}

export interface AuthenticateDeps {
  tenancy: Tenancy;
  standing?: SlackStanding;
}

const STANDING_REFUSAL: Record<Exclude<Standing, 'active' | 'unknown'>, { message: string; lost: string }> = {
  deactivated: {
    message:
      'Nothing was sent: Slack says the account this acts for is deactivated, and the bot acts only for active members of the workspace.',
    lost: 'is deactivated in Slack',
  },
  gone: {
    message:
      'Nothing was sent: Slack no longer knows the account this acts for, and the bot acts only for members of the workspace.',
    lost: 'no longer exists in Slack',
  },
};

/** The person's standing in Slack, as a refusal when it is not good. */
export async function standingRefusal(
  deps: Pick<AuthenticateDeps, 'standing'>,
  person: PersonRef,
): Promise<{ standing: Standing; refusal?: OpFailure }> {
  const standing = (await deps.standing?.standingOf(person).catch(() => 'unknown' as const)) ?? 'unknown';
  if (standing === 'active' || standing === 'unknown') return { standing };
  return { standing, refusal: refusedFor(standing) };
}

/** The refusal of a person Slack says is deactivated or gone. */
export function refusedFor(standing: Exclude<Standing, 'active' | 'unknown'>): OpFailure {
  return { ok: false, ...STANDING_REFUSAL[standing], refusedBy: 'standing' };
}

/**
 * Authenticates the person an operation acts for: their Slack standing, their tenant, and (when the
 * operation calls the service) the identity they act with, whose refusals (connect first, a token turned
 * down) are the gate's.
 */
export async function authenticate(
  deps: AuthenticateDeps,
  person: PersonRef,
  o: { identity: boolean },
): Promise<{ ok: true; principal: Principal } | { ok: false; failure: OpFailure }> {
  const { standing, refusal } = await standingRefusal(deps, person);
  if (refusal) return { ok: false, failure: refusal };
  const tenant = deps.tenancy.tenantOf(person.teamId || undefined);
  if (!o.identity) return { ok: true, principal: { person, tenant, standing } };
  const identity = await tenant.identity.forPerson(person);
  if (!identity.ok) return { ok: false, failure: { ...identity.refusal, refusedBy: 'identity' } };
  return { ok: true, principal: { person, tenant, standing, identity } };
}

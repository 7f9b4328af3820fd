import type { OpFailure } from '../outcome.js';

/**
 * Who may change a tenant's own service account ("Add to Slack"): its admins, as Slack says at the moment
 * they act, for the scope of the installation. The account serves everyone of the tenant and receives
 * their commands (and, connected to the wrong place, would receive their tokens), so only Slack's own word
 * counts, asked anew each time (`users.info`), and an unanswered question refuses.
 */

/** What Slack says of a person now (`users.info`), as far as setting a tenant up goes. */
export interface SlackRights {
  /** The workspace they belong to (`team_id`). */
  teamId?: string;
  /** An admin or owner of the workspace the installation's token belongs to (`is_admin`, `is_owner`). */
  admin: boolean;
  owner: boolean;
  /** A guest (`is_restricted`, `is_ultra_restricted`). */
  guest: boolean;
  /** Slack says the person is of no workspace the installation sees (`is_stranger`). */
  stranger: boolean;
  /** A deactivated or deleted account (`deleted`). */
  deleted: boolean;
  /** On Enterprise Grid (`enterprise_user`): their organisation, its workspaces they are in, their standing in it. */
  enterprise?: { id: string; admin: boolean; owner: boolean; teams: readonly string[] };
}

/** The installation a tenant is, as far as its admins go. */
export interface TenantInstall {
  /** Installed for a whole Enterprise Grid organisation (the tenant is the organisation). */
  orgWide: boolean;
  /** Who installed it (Slack's `authed_user`). */
  installerId?: string;
  /** Whether a service account is connected now: then installing the app grants nothing. */
  connected: boolean;
}

const NOT_OURS =
  'Slack says you are not a member of this Slack workspace (you may be a guest from another organisation in a shared channel), so its service account is not yours to change: only its own admins connect it.';
const ORG_ADMINS =
  "The app is installed for the whole organisation, so only an admin or owner of the organisation (Slack's organisation admins) connects its service account: a workspace's admins do not decide for the others.";
const WORKSPACE_ADMINS =
  'Only the admins and owners of this Slack workspace connect it to a service account (and, until one is connected, whoever installed the app): ask one of them.';
const GUESTS = 'Guests of a Slack workspace do not connect it to a service account: ask one of its admins.';
const UNANSWERED =
  'Slack did not say just now whether you are one of the admins of this Slack workspace, so nothing can be changed: try again in a moment.';

/** Whether `userId` may change tenant `tenant`'s service account now, as a refusal naming its guarantee. */
export function adminRefusal(
  tenant: string,
  install: TenantInstall,
  userId: string,
  rights: SlackRights | undefined,
): OpFailure | null {
  if (!rights) return { ok: false, message: UNANSWERED, refusedBy: 'admin' };
  const member = install.orgWide
    ? rights.enterprise?.id === tenant
    : rights.teamId === tenant || (rights.enterprise?.teams.includes(tenant) ?? false);
  if (!member || rights.stranger) return { ok: false, message: NOT_OURS, refusedBy: 'team' };
  if (rights.guest) return { ok: false, message: GUESTS, refusedBy: 'admin' };
  const admin = install.orgWide
    ? rights.enterprise !== undefined && (rights.enterprise.admin || rights.enterprise.owner)
    : rights.admin || rights.owner;
  if (admin) return null;
  // Whoever installed the app sets it up the first time; installing again over a connected one grants nothing.
  if (install.installerId === userId && !install.connected) return null;
  return { ok: false, message: install.orgWide ? ORG_ADMINS : WORKSPACE_ADMINS, refusedBy: 'admin' };
}

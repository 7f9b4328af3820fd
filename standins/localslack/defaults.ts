import type { LocalChannel, LocalEnterprise, LocalTeam, LocalUser, LocalUsergroup } from './types.js';

/** The stand-in's own workspace: where everyone is unless told otherwise, and the bot token is installed. */
export const DEFAULT_TEAMS: LocalTeam[] = [{ id: 'T0LOCAL', name: 'Local Slack', domain: 'localslack' }];

export const DEFAULT_ENTERPRISES: LocalEnterprise[] = [];

/**
 * A requester and two approvers in different zones and locales, so per-user time zones, day/month order
 * and approvals can be tried.
 */
export const DEFAULT_USERS: LocalUser[] = [
  { id: 'U0ALICE', name: 'alice', realName: 'Alice Requester', tz: 'Europe/London', locale: 'en-GB' },
  { id: 'U0BOB', name: 'bob', realName: 'Bob Approver', tz: 'Asia/Kolkata', locale: 'en-IN' },
  { id: 'U0CAROL', name: 'carol', realName: 'Carol Approver', tz: 'America/New_York', locale: 'en-US' },
];

export const DEFAULT_CHANNELS: LocalChannel[] = [
  { id: 'C0GENERAL', name: 'general' },
  { id: 'C0OPS', name: 'plant-ops' },
];

export const DEFAULT_USERGROUPS: LocalUsergroup[] = [
  { id: 'S0APPROVERS', handle: 'tsai-approvers', users: ['U0BOB', 'U0CAROL'] },
];

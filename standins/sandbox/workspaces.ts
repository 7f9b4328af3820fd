import type { LocalChannel, LocalTeam, LocalUser } from '../localslack/types.js';

/**
 * The sandbox's second workspace: another company, with people and a channel of its own, where the app is
 * not installed until someone adds it with "Add to Slack" from the page, and which then connects a service
 * account of its own. Nothing of the first workspace is seen from it.
 */
export const SECOND_WORKSPACE: { team: LocalTeam; users: LocalUser[]; channels: LocalChannel[] } = {
  team: { id: 'T0GLOBEX', name: 'Globex', domain: 'globex' },
  users: [
    {
      id: 'U0GREG',
      name: 'greg',
      realName: 'Greg Globex',
      tz: 'America/Chicago',
      locale: 'en-US',
      teamId: 'T0GLOBEX',
      isAdmin: true,
    },
    {
      id: 'U0GINA',
      name: 'gina',
      realName: 'Gina Globex',
      tz: 'America/Chicago',
      locale: 'en-US',
      teamId: 'T0GLOBEX',
    },
  ],
  channels: [{ id: 'C0GLOBEX', name: 'globex-ops', teams: ['T0GLOBEX'] }],
};

/**
 * Who approves live starts in the sandbox: the demo group's people (bob, carol). "Add to Slack" takes people,
 * not user groups (a group belongs to one workspace); Globex has no approvers of its own.
 */
export const SANDBOX_APPROVERS = ['U0BOB', 'U0CAROL'];

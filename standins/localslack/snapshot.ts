import type { Installs } from './installs.js';
import type { ChannelState, SlackState } from './state.js';
import { BOT_USER_ID, TEAM_ID } from './state.js';
import type { LocalMessage, LocalSlackSnapshot } from './types.js';

/** A copy of what `viewer` sees (everything without one): channels, messages, views, Home, app settings. */
export function snapshotOf(state: SlackState, installs: Installs, viewer?: string): LocalSlackSnapshot {
  const copy = <T>(v: T): T => structuredClone(v);
  const sees = (m: LocalMessage) => !viewer || m.ephemeralTo === undefined || m.ephemeralTo === viewer;
  const team = viewer && state.users.has(viewer) ? state.teamOf(viewer).id : TEAM_ID;
  // A viewer sees the conversations of their own workspace (shared ones included), as in Slack's client.
  const inTeam = (c: LocalSlackSnapshot['channels'][number] | ChannelState) =>
    !viewer || state.teamsOf(c).includes(team);
  return {
    version: state.version,
    teamId: team,
    botUserId: BOT_USER_ID,
    botUserIds: installs.botUserIds(),
    teams: copy([...state.teams.values()]),
    enterprises: copy([...state.enterprises.values()]),
    installs: installs.all
      .filter((i) => i.installed)
      .map((i) => ({
        ...(i.teamId ? { teamId: i.teamId } : {}),
        ...(i.enterpriseId ? { enterpriseId: i.enterpriseId } : {}),
        isEnterpriseInstall: i.isEnterpriseInstall,
        botUserId: i.botUserId,
      })),
    users: copy([...state.users.values()]),
    channels: [...state.channels.values()]
      .filter((c) => !viewer || (state.canSee(c, viewer) && inTeam(c)))
      .map((c) => copy({ ...c, messages: c.messages.filter(sees) })),
    views: viewer ? copy(state.views.get(viewer) ?? []) : [],
    home: viewer ? copy(state.home.get(viewer)) : undefined,
    app: { ...state.app },
  };
}

/** The messages in a channel, as `user` sees them when given (top level, or one thread). */
export function messagesIn(
  state: SlackState,
  channel: string,
  o: { user?: string; threadTs?: string } = {},
): LocalMessage[] {
  const ch = state.channels.get(channel);
  if (!ch) return [];
  if (!o.user) return ch.messages.filter((m) => (o.threadTs ? m.threadTs === o.threadTs : true));
  return state.visibleMessages(channel, o.user, o.threadTs);
}

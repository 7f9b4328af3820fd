import type { SlackState } from './state.js';
import { BOT_USER_ID, TEAM_ID } from './state.js';
import type { LocalMessage, LocalSlackSnapshot } from './types.js';

/** A copy of what `viewer` sees (everything without one): channels, messages, views, Home, app settings. */
export function snapshotOf(state: SlackState, viewer?: string): LocalSlackSnapshot {
  const copy = <T>(v: T): T => structuredClone(v);
  const sees = (m: LocalMessage) => !viewer || m.ephemeralTo === undefined || m.ephemeralTo === viewer;
  return {
    version: state.version,
    teamId: TEAM_ID,
    botUserId: BOT_USER_ID,
    users: copy([...state.users.values()]),
    channels: [...state.channels.values()]
      .filter((c) => !viewer || state.canSee(c, viewer))
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

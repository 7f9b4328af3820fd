import { randomBytes } from 'node:crypto';
import { type LocalSlackContext, placeOf, userRef } from './context.js';
import type { LocalInstall } from './installs.js';
import type { SendEventOptions } from './local-slack-api.js';
import { nowSeconds } from './signing.js';
import { APP_ID } from './state.js';
import type { Delivery } from './types.js';
import { viewPayload } from './webapi.js';

const randomId = (n: number) => randomBytes(n).toString('hex').toUpperCase().slice(0, n);

/**
 * Where an event happens and which installation it is delivered for: the installation given, else the one
 * serving the workspace of the event's person (`user`, or the option's), else the stand-in's own.
 */
function eventPlace(ctx: LocalSlackContext, event: Record<string, unknown>, eo: SendEventOptions) {
  if (eo.install) {
    const i = eo.install;
    const teamId = i.teamId ?? ctx.installs.teamsOf(i)[0] ?? i.enterpriseId ?? '';
    return { teamId, enterpriseId: i.enterpriseId, install: i };
  }
  const user = eo.user ?? (typeof event.user === 'string' ? event.user : undefined);
  if (user && ctx.state.users.has(user)) {
    const p = placeOf(ctx, user);
    return { teamId: p.team.id, enterpriseId: p.enterprise?.id, install: p.install };
  }
  const i = ctx.installs.default;
  return { teamId: i.teamId ?? '', enterpriseId: undefined, install: i };
}

/** An Events API delivery: a signed JSON `event_callback` envelope around `event`. */
export async function sendEvent(
  ctx: LocalSlackContext,
  event: Record<string, unknown>,
  eo: SendEventOptions = {},
): Promise<Delivery> {
  const eventId = eo.eventId ?? `Ev${randomId(10)}`;
  const place = eventPlace(ctx, event, eo);
  const envelope = {
    token: 'local-verification-token',
    team_id: place.teamId,
    ...(place.enterpriseId ? { enterprise_id: place.enterpriseId } : {}),
    context_team_id: place.teamId,
    ...(place.enterpriseId ? { context_enterprise_id: place.enterpriseId } : {}),
    api_app_id: APP_ID,
    event: { event_ts: ctx.state.nextTs(), ...event },
    type: 'event_callback',
    event_id: eventId,
    event_time: eo.eventTime ?? nowSeconds(),
    authorizations: [authorization(place.install)],
    is_ext_shared_channel: false,
    event_context: `4-${randomId(16)}`,
  };
  const retry: Record<string, string> =
    eo.retryNum === undefined
      ? {}
      : {
          'x-slack-retry-num': String(eo.retryNum),
          'x-slack-retry-reason': eo.retryReason ?? 'http_timeout',
        };
  const d = await ctx.bot.post(ctx.bot.endpointPath(), JSON.stringify(envelope), {
    contentType: 'application/json',
    headers: retry,
  });
  ctx.events.push({
    eventId,
    event: envelope.event,
    ...(eo.retryNum === undefined ? {} : { retryNum: eo.retryNum }),
    status: d.status,
    at: Date.now(),
  });
  ctx.state.changed();
  return { ...d, eventId };
}

/** The user opens the app's Home (or Messages) tab: `app_home_opened`, on every visit as Slack sends it. */
export function openHome(
  ctx: LocalSlackContext,
  { user, tab = 'home' }: { user: string; tab?: 'home' | 'messages' },
): Promise<Delivery> {
  const { state } = ctx;
  const u = userRef(ctx, user);
  if (tab === 'home' && !state.app.homeTabEnabled)
    throw new Error('local slack: the app has no Home tab (home_tab_enabled is off)');
  if (tab === 'messages' && !state.app.messagesTabEnabled)
    throw new Error('local slack: the app has no Messages tab (messages_tab_enabled is off)');
  const dm = state.channel(u.id)!;
  const home = state.home.get(u.id);
  return sendEvent(ctx, {
    type: 'app_home_opened',
    user: u.id,
    channel: dm.id,
    tab,
    ...(home ? { view: viewPayload(home) } : {}),
  });
}

/** Which installation an event is for, as Slack's `authorizations[0]` names it. */
function authorization(i: LocalInstall) {
  return {
    enterprise_id: i.enterpriseId ?? null,
    team_id: i.isEnterpriseInstall ? null : (i.teamId ?? null),
    user_id: i.botUserId,
    is_bot: true,
    is_enterprise_install: i.isEnterpriseInstall,
  };
}

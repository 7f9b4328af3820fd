import { commandText } from './command-text.js';
import {
  channelRef,
  interactionBase,
  type LocalSlackContext,
  placeOf,
  responseUrl,
  userRef,
} from './context.js';
import type { LocalSlack } from './local-slack-api.js';
import { threadOf } from './message-events.js';
import { applyResponse } from './respond.js';
import { APP_ID } from './state.js';
import type { Delivery } from './types.js';
import { actionPayload, buildStateValues, findElement } from './views.js';
import { messagePayload } from './webapi.js';

/** The user types a slash command in a channel. */
export async function sendCommand(
  ctx: LocalSlackContext,
  {
    user,
    channel,
    text: typed,
    command = '/tsai',
    shouldEscape,
    rawText,
    teamId,
  }: Parameters<LocalSlack['sendCommand']>[0],
): Promise<Delivery> {
  const { state } = ctx;
  const u = userRef(ctx, user);
  // A command typed in the app's Messages tab runs in the person's direct messages with it.
  const ch = channel === `D${u.id}` ? state.channel(u.id)! : channelRef(ctx, channel);
  const place = placeOf(ctx, u.id, teamId);
  if (ch.archived) throw new Error(`local slack: #${ch.name} is archived; nobody can type there`);
  if (!state.canSee(ch, u.id)) throw new Error(`local slack: ${user} is not in ${channel}`);
  // Slack shows the invocation only to its author until an in_channel reply reveals it to everyone.
  const cmd = state.addMessage({
    channel: ch.id,
    user: u.id,
    text: `${command} ${typed}`.trim(),
    ephemeralTo: u.id,
    kind: 'command',
    via: 'user',
  });
  const text = rawText ? typed : commandText(typed, state, shouldEscape ?? ctx.options.shouldEscape ?? false);
  const triggerId = state.issueTrigger(u.id);
  const rUrl = responseUrl(ctx, state.issueResponseUrl({ user: u.id, channel: ch.id, commandTs: cmd.ts }));
  const body = new URLSearchParams({
    token: 'local-verification-token',
    team_id: place.team.id,
    team_domain: place.team.domain,
    ...(place.enterprise
      ? { enterprise_id: place.enterprise.id, enterprise_name: place.enterprise.name }
      : {}),
    channel_id: ch.id,
    channel_name: ch.isIm ? 'directmessage' : ch.name,
    user_id: u.id,
    user_name: u.name,
    command,
    text,
    api_app_id: APP_ID,
    is_enterprise_install: String(place.install.isEnterpriseInstall),
    response_url: rUrl,
    trigger_id: triggerId,
  }).toString();
  const d = await ctx.bot.post(ctx.bot.endpointPath(), body);
  const out: Delivery = { ...d, triggerId, responseUrl: rUrl, commandTs: cmd.ts };
  if (d.status !== 200) {
    const why = d.status === 0 ? d.body : 'http_service_error';
    state.addMessage({
      channel: ch.id,
      user: 'USLACKBOT',
      text: `${command} failed with the error "${why}"`,
      ephemeralTo: u.id,
      kind: 'system',
      via: 'slack',
    });
  } else if (d.body) {
    // A non-empty ack is shown as a reply, exactly like a response_url post.
    const reply = d.json && typeof d.json === 'object' ? d.json : { text: d.body };
    const target = [...state.responseTargets.values()].find((t) => t.commandTs === cmd.ts);
    if (target) {
      target.uses--; // the ack does not count against the response_url's five uses
      applyResponse(state, target, reply);
    }
  }
  return out;
}

/** The user clicks an interactive element of a message. */
export async function clickButton(
  ctx: LocalSlackContext,
  { user, channel, messageTs, actionId, blockId, value, teamId }: Parameters<LocalSlack['clickButton']>[0],
): Promise<Delivery> {
  const { state } = ctx;
  const u = userRef(ctx, user);
  const ch = channelRef(ctx, channel);
  const m = state.message(ch.id, messageTs);
  if (!m || (m.ephemeralTo !== undefined && m.ephemeralTo !== u.id))
    throw new Error(`local slack: ${user} sees no message ${messageTs} in ${channel}`);
  const ref = findElement(m.blocks, actionId, blockId);
  if (!ref) throw new Error(`local slack: message ${messageTs} has no element with action_id "${actionId}"`);
  const triggerId = state.issueTrigger(u.id);
  const rUrl = responseUrl(ctx, state.issueResponseUrl({ user: u.id, channel: ch.id, messageTs: m.ts }));
  const ephemeral = m.ephemeralTo !== undefined;
  const d = await ctx.bot.deliverPayload({
    ...interactionBase(ctx, 'block_actions', u, teamId),
    container: { type: 'message', message_ts: m.ts, channel_id: ch.id, is_ephemeral: ephemeral },
    trigger_id: triggerId,
    channel: { id: ch.id, name: ch.name },
    ...(ephemeral ? {} : { message: messagePayload(m, threadOf(ctx, m)) }),
    state: { values: buildStateValues(m.blocks) },
    response_url: rUrl,
    actions: [actionPayload(ref, value, state.nextTs())],
  });
  return { ...d, triggerId, responseUrl: rUrl };
}

/** The user runs the app's global shortcut. */
export async function sendShortcut(
  ctx: LocalSlackContext,
  { user, callbackId }: Parameters<LocalSlack['sendShortcut']>[0],
): Promise<Delivery> {
  const u = userRef(ctx, user);
  const triggerId = ctx.state.issueTrigger(u.id);
  const { api_app_id: _a, ...base } = interactionBase(ctx, 'shortcut', u);
  const d = await ctx.bot.deliverPayload({
    ...base,
    user: { id: u.id, username: u.username, team_id: u.team_id },
    action_ts: ctx.state.nextTs(),
    callback_id: callbackId,
    trigger_id: triggerId,
  });
  return { ...d, triggerId };
}

import type { types } from '@slack/bolt';
import { CONNECT_UNAVAILABLE, type Connection, type Standing } from '../../core/identity/index.js';
import type { MessageBody } from '../views/messages.js';
import { code, escapeMrkdwn, type KnownBlock, section, slackTime } from '../views/mrkdwn.js';
import { CONNECT_CALLBACK, IDENTITY_ACTION, TOKEN_BLOCK, TOKEN_INPUT } from './ids.js';

/** Where the form was opened from: where to tell the person once they connected. */
export interface ConnectFormMeta {
  channelId?: string;
  responseUrl?: string;
}

const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });

/** The Connect form: one field for the token, and where to get one. */
export function connectModal(meta: ConnectFormMeta): types.ModalView {
  return {
    type: 'modal',
    callback_id: CONNECT_CALLBACK,
    title: plain('Connect'),
    submit: plain('Connect'),
    close: plain('Cancel'),
    private_metadata: JSON.stringify(meta),
    blocks: [
      section(
        'Act as yourself at the service: the bot then makes your service calls with your own token, so the service sees you and your role. The token is checked with the service first, then kept encrypted; it is never shown again.',
      ),
      {
        type: 'input',
        block_id: TOKEN_BLOCK,
        label: plain('Your service token'),
        hint: plain(
          "Make one in the service's user interface (your profile, API tokens) and paste it here. In the sandbox, the sandbox page shows the token of the person you act as.",
        ),
        element: {
          type: 'plain_text_input',
          action_id: TOKEN_INPUT,
          placeholder: plain('Paste your token'),
        },
      },
    ],
  };
}

/** The form where the person reads what they are now connected as (nothing to send). */
export function connectedModal(c: Connection): types.ModalView {
  return {
    type: 'modal',
    callback_id: CONNECT_CALLBACK,
    title: plain('Connected'),
    close: plain('Done'),
    blocks: [section(connectedText(c))],
  };
}

/** Reads the form's metadata (the bot's own, handed back by Slack); anything unreadable is no place to tell. */
export function formMeta(text: string | undefined): ConnectFormMeta {
  try {
    const m = JSON.parse(text ?? '') as Record<string, unknown>;
    return {
      ...(typeof m.channelId === 'string' ? { channelId: m.channelId } : {}),
      ...(typeof m.responseUrl === 'string' ? { responseUrl: m.responseUrl } : {}),
    };
  } catch {
    return {};
  }
}

/** As whom: `account 1000… as Manager (alice)`, saying nothing of what the service did not say. */
function asWhom(c: Connection): string {
  const role = c.role ? `, role ${escapeMrkdwn(c.role)}` : '';
  const user = c.serviceUser ? `, as ${escapeMrkdwn(c.serviceUser)}` : '';
  return `account ${code(c.accountId)}${role}${user}`;
}

export function connectedText(c: Connection): string {
  return `:white_check_mark: You are connected: your service calls are made with your own token (${asWhom(c)}). \`/tsai whoami\` shows it, \`/tsai disconnect\` deletes it.`;
}

/** What `/tsai whoami` and the Home say of whom the person acts as. */
export function standingText(s: Standing, canConnect: boolean): string {
  if (s.kind === 'connected')
    return `You act as yourself: connected ${slackTime(s.connection.since, '{date_short_pretty} {time}')}, ${asWhom(s.connection)}. \`/tsai disconnect\` deletes your token.`;
  if (s.kind === 'set-aside')
    return `Your own token (connected ${slackTime(s.connection.since, '{date_short_pretty} {time}')}, ${asWhom(s.connection)}) was checked against the service account this Slack workspace worked with before its admins changed it, so it is set aside: it is never sent to the new one, and nothing is sent for you with it. Connect again with a token of the account the workspace uses now (\`/tsai setup\` shows it).`;
  const how = canConnect
    ? "To act as yourself, type `/tsai connect` and paste your own service token (made in the service's user interface)."
    : CONNECT_UNAVAILABLE;
  if (s.kind === 'shared')
    return `You are not connected: your service calls are made with the bot's shared identity. ${how}`;
  return `You are not connected, and this bot acts only with each person's own token: nothing is sent to the service for you until you connect. ${how}`;
}

const button = (text: string, actionId: string, style?: 'primary' | 'danger') => ({
  type: 'button' as const,
  text: plain(text),
  action_id: actionId,
  value: actionId,
  ...(style ? { style } : {}),
});

const DISCONNECT_CONFIRM = {
  title: plain('Disconnect?'),
  text: plain('Your token is deleted; your service calls are made with the bot’s identity, if it has one.'),
  confirm: plain('Disconnect'),
  deny: plain('Keep it'),
};

/** What the Home tab shows of a person's identity. */
export interface HomeIdentity {
  standing: Standing;
  canConnect: boolean;
}

/** The standing and its one button: Connect, or Disconnect. */
export function standingBlocks(s: Standing, canConnect: boolean): KnownBlock[] {
  const blocks: KnownBlock[] = [section(standingText(s, canConnect))];
  if (s.kind === 'connected')
    blocks.push({
      type: 'actions',
      block_id: 'identity_buttons',
      elements: [
        { ...button('Disconnect', IDENTITY_ACTION.disconnect, 'danger'), confirm: DISCONNECT_CONFIRM },
      ],
    });
  else if (canConnect)
    blocks.push({
      type: 'actions',
      block_id: 'identity_buttons',
      elements: [
        button(s.kind === 'set-aside' ? 'Connect again' : 'Connect', IDENTITY_ACTION.connect, 'primary'),
      ],
    });
  return blocks;
}

export function standingMessage(s: Standing, canConnect: boolean): MessageBody {
  const text = standingText(s, canConnect);
  return { text, blocks: standingBlocks(s, canConnect) };
}

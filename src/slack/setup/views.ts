import type { types } from '@slack/bolt';
import type { AccountPlace, ServiceAccount } from '../../core/tenancy/accounts.js';
import type { MessageBody } from '../views/messages.js';
import { code, escapeMrkdwn, type KnownBlock, section, slackTime } from '../views/mrkdwn.js';
import { SETUP_ACTION, SETUP_CALLBACK, SETUP_FIELDS } from './ids.js';

const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });

/** The field of an input, prefilled when there is something to offer. */
function field(
  f: (typeof SETUP_FIELDS)[keyof typeof SETUP_FIELDS],
  label: string,
  hint: string,
  initial?: string,
): KnownBlock {
  return {
    type: 'input',
    block_id: f.block,
    label: plain(label),
    hint: plain(hint),
    element: {
      type: 'plain_text_input',
      action_id: f.input,
      ...(initial ? { initial_value: initial } : {}),
    },
  } as KnownBlock;
}

/**
 * The setup form: the service's URL and the account ID (prefilled with the account connected now, else
 * with the service the operator names, TSAI_BASE_URL), and a token, never prefilled.
 */
export function setupModal(prefill: Partial<AccountPlace>): types.ModalView {
  return {
    type: 'modal',
    callback_id: SETUP_CALLBACK,
    title: plain('Connect the service'),
    submit: plain('Connect'),
    close: plain('Cancel'),
    blocks: [
      section(
        "Connect this Slack workspace to your own account of the service: everyone here then works with it (or with their own token, `/tsai connect`), and nothing of another workspace's account is ever reached. The token is checked with the service first, then kept encrypted; it is never shown again.",
      ),
      field(
        SETUP_FIELDS.baseUrl,
        'Service URL',
        "Your service's address, e.g. https://tsai.example.com",
        prefill.baseUrl,
      ),
      field(
        SETUP_FIELDS.accountId,
        'Account ID',
        "As the service's user interface shows it, e.g. 1000000000000000001",
        prefill.accountId,
      ),
      field(
        SETUP_FIELDS.token,
        'Token',
        "A token of the account (made in the service's user interface): it acts for whoever has not connected their own.",
      ),
    ] as types.ModalView['blocks'],
  };
}

/** What the workspace is connected to: where, which account, who connected it and when. Never the token. */
export function accountText(a: ServiceAccount): string {
  const role = a.role ? `, role ${escapeMrkdwn(a.role)}` : '';
  return `This workspace works with account ${code(a.accountId)} at ${code(a.baseUrl)}${role}, connected by <@${a.connectedBy}> ${slackTime(a.connectedAt, '{date_short_pretty} {time}')}.`;
}

/** The form once connected: what the workspace now works with. */
export function setupDoneModal(a: ServiceAccount): types.ModalView {
  return {
    type: 'modal',
    callback_id: SETUP_CALLBACK,
    title: plain('Connected'),
    close: plain('Done'),
    blocks: [
      section(`:white_check_mark: ${accountText(a)} Commands, forms, schedules and steps here now reach it.`),
    ],
  };
}

/** What a workspace's people are told of its service account, and, for its admins, the button to change it. */
export function setupBlocks(a: ServiceAccount | undefined, mayConnect: boolean): KnownBlock[] {
  const text = a
    ? accountText(a)
    : mayConnect
      ? 'This workspace is not connected to a service account yet, so nothing can be sent to the service. Connect it: you are one of its admins.'
      : 'This workspace is not connected to a service account yet, so nothing can be sent to the service. One of its Slack admins connects it with `/tsai setup`.';
  const blocks: KnownBlock[] = [section(text)];
  if (mayConnect)
    blocks.push({
      type: 'actions',
      block_id: 'setup_buttons',
      elements: [
        {
          type: 'button',
          text: plain(a ? 'Change the service account' : 'Connect the service'),
          action_id: SETUP_ACTION.open,
          value: SETUP_ACTION.open,
          ...(a ? {} : { style: 'primary' as const }),
        },
      ],
    });
  return blocks;
}

export function setupMessage(a: ServiceAccount | undefined, mayConnect: boolean): MessageBody {
  const blocks = setupBlocks(a, mayConnect);
  const first = blocks[0] as { text?: { text?: string } };
  return { text: first.text?.text ?? '', blocks };
}

/** With one bot token, the bot serves with the account its operator configured: nothing to set up in Slack. */
export const NOTHING_TO_SET_UP =
  'This bot works with the one service account its operator configured (TSAI_BASE_URL), so there is nothing to set up here. Each person may still act as themselves: `/tsai connect`.';

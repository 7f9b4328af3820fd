import type { KnownBlock } from './mrkdwn.js';

/** The Connect button's action_id; the identity feature's form answers it. */
export const IDENTITY_CONNECT_ACTION = 'identity_connect';

/** Slack's limit on a button's value. */
const MAX_VALUE = 2000;

/**
 * The Connect (or Reconnect) button under a refusal for want of the person's own service identity. Its
 * value is what they were doing, so that it can be run again once they are connected.
 */
export function connectActions(kind: 'connect' | 'reconnect', retry?: string): KnownBlock {
  return {
    type: 'actions',
    elements: [
      {
        type: 'button',
        text: { type: 'plain_text', text: kind === 'reconnect' ? 'Reconnect' : 'Connect' },
        action_id: IDENTITY_CONNECT_ACTION,
        style: 'primary',
        ...(retry && retry.length <= MAX_VALUE ? { value: retry } : {}),
      },
    ],
  };
}

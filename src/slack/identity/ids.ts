/** `action_id`s of the Connect and Disconnect buttons (in replies and the Home tab). */
export const IDENTITY_ACTION = {
  connect: 'identity_connect',
  disconnect: 'identity_disconnect',
} as const;

/** `callback_id` of the Connect form. */
export const CONNECT_CALLBACK = 'identity_connect_form';

/** The Connect form's one field: its block and its input. */
export const TOKEN_BLOCK = 'service_token';
export const TOKEN_INPUT = 'service_token_input';

/** `callback_id` of the setup form, `action_id` of its buttons (in replies and the Home tab). */
export const SETUP_CALLBACK = 'tenant_setup_form';
export const SETUP_ACTION = { open: 'tenant_setup_open' } as const;

/** The setup form's fields: block and input of each. */
export const SETUP_FIELDS = {
  baseUrl: { block: 'setup_base_url', input: 'setup_base_url_input' },
  accountId: { block: 'setup_account_id', input: 'setup_account_id_input' },
  token: { block: 'setup_token', input: 'setup_token_input' },
} as const;

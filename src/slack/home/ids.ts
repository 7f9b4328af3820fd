/** `action_id`s of the Home tab's buttons; the value is the request ID. */
export const HOME_ACTION = {
  approve: 'home_approve',
  reject: 'home_reject',
} as const;

/** `callback_id` of the published Home view. */
export const HOME_CALLBACK = 'tsai_home';

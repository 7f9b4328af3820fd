/**
 * `action_id`s of the interactive parts of the modals. Shared: "Reopen with my inputs" also sits under a
 * finished flow's message.
 */
export const MODAL_ACTION = {
  /** A time-range input, dispatched when the user presses Enter in it. */
  range: 'tsai_modal_range',
  addRange: 'tsai_modal_range_add',
  /** Prefix: each remove button's action_id is `${prefix}:${rangeKey}` (action_ids must differ within a block). */
  removeRange: 'tsai_modal_range_remove',
  /** The "Reopen with my inputs" button on a failure message. */
  reopen: 'tsai_modal_reopen',
} as const;

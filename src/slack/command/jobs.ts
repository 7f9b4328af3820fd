import type { SlashCommand } from '@slack/bolt';

/** `/tsai …` acknowledged: parse it, then open a form or run it. */
export type CommandJob = { kind: 'command'; command: SlashCommand };

/** The "Run this every …" button under a completed flow, and the small modal it opens. */
export const REPEAT_FLOW = {
  action: 'schedule_repeat_flow',
  callback: 'schedule_repeat_flow_modal',
  whenBlock: 'when',
  whenInput: 'when_input',
  commandBlock: 'command',
  commandInput: 'command_input',
} as const;

/** Whether a flow's command can be offered as a schedule: a scheduled run's own flow already is one. */
export function canRepeat(asked: string): boolean {
  return /^\/tsai\s+\S/.test(asked) && !/^\/tsai\s+schedule\b/i.test(asked);
}

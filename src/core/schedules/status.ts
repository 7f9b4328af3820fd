import type { ScheduleStatus } from '../../store/index.js';

/** A schedule's status in words for people. */
export const STATUS_WORDS: Record<ScheduleStatus, string> = {
  active: 'active',
  paused: 'paused',
  'awaiting-approval': 'waiting for approval',
  rejected: 'rejected',
  deleted: 'deleted',
};

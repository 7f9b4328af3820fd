import type { CommandSpec } from '../grammar/spec.js';
import { EXAMPLE_IDS as X } from '../ids.js';

/** A command a schedule repeats in the examples: it works as typed against the sandbox's demo data. */
export const SCHEDULED_EXAMPLE = `score ${X.model} workspace=${X.workspace} signals=${X.signal}:temperature range="last 8 hours" prefix=shift`;

export const SCHEDULE_EXAMPLE = `/tsai schedule "every weekday at 06:00" ${SCHEDULED_EXAMPLE}`;

/**
 * What can be done to a schedule after it is made, by its word (and the words that mean the same): the
 * usage below and the reading of `/tsai schedule <word> <schedule>` (manage.ts) both come from here.
 */
export const SCHEDULE_CHANGES = {
  pause: { also: ['stop'], does: 'stops it running until resumed' },
  resume: { also: [], does: 'runs it again' },
  delete: { also: ['remove'], does: 'removes it for good' },
  take: {
    also: ['takeover'],
    does: 'makes one paused because its owner may no longer run it yours, to run as you (a live start or stop is approved again)',
  },
} as const;

export type ScheduleChange = keyof typeof SCHEDULE_CHANGES;

/** How many schedules `/tsai schedules` lists on one page. */
export const SCHEDULES_PAGE = 20;

const CHANGE_WORDS = Object.keys(SCHEDULE_CHANGES).join('|');

/**
 * Schedules and digests: their text after the command word is read by core/schedules, not by the
 * grammar's key table, because a schedule carries a whole command of its own (`raw`).
 */
export const SCHEDULE_COMMANDS: CommandSpec[] = [
  {
    id: 'schedule',
    words: ['schedule'],
    usage: `/tsai schedule "<when>" <command…>  or  /tsai schedule ${CHANGE_WORDS} <number, name or ID>`,
    summary: `Run a command again and again, in your zone ("every weekday at 06:00", "every 8 hours", cron); each run reads the command anew, so "last 8 hours" is the 8 hours before it. By its number in \`/tsai schedules\`, its name or its ID: ${Object.entries(
      SCHEDULE_CHANGES,
    )
      .map(([word, c]) => `${word} ${c.does}`)
      .join('; ')}.`,
    examples: [
      SCHEDULE_EXAMPLE,
      `/tsai schedule "every other week on Friday at 16:00" workspace show ${X.workspace}`,
    ],
    mutating: true,
    keys: [],
    raw: true,
  },
  {
    id: 'schedules',
    words: ['schedules'],
    usage: '/tsai schedules [page]',
    summary: `This channel's schedules and digests, ${SCHEDULES_PAGE} to a page: when each runs next, and how its last run went.`,
    examples: ['/tsai schedules'],
    mutating: false,
    keys: [],
    raw: true,
  },
  {
    id: 'digest',
    words: ['digest'],
    usage: '/tsai digest "<when>"  or  /tsai digest now',
    summary:
      'One message per period in this channel: the flows started, completed and failed, approvals waiting and decided, schedule runs skipped or failed, and what runs next.',
    examples: ['/tsai digest "every weekday at 07:00"', '/tsai digest now'],
    mutating: false,
    answers: 'in the channel',
    keys: [],
    raw: true,
  },
];

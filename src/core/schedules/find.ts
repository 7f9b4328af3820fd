import type { Schedule, Store } from '../../store/index.js';
import type { OpFailure } from '../outcome.js';
import { SCHEDULES_PAGE } from './commands.js';

/** A channel of a Slack team: where a schedule belongs, and is numbered. */
export interface ScheduleChannel {
  channelId: string;
  teamId?: string;
}

const where = (c: ScheduleChannel) => ({ channelId: c.channelId, ...(c.teamId ? { teamId: c.teamId } : {}) });

/** One page of a channel's schedules, in the order people number them (oldest first). */
export interface SchedulesPage {
  schedules: Schedule[];
  /** How many the channel has, on every page. */
  total: number;
  page: number;
  pages: number;
  /** The number of the first on this page. */
  first: number;
}

export async function schedulesPage(
  store: Pick<Store, 'listSchedules' | 'countSchedules'>,
  channel: ScheduleChannel,
  page: number,
): Promise<SchedulesPage> {
  const total = await store.countSchedules(where(channel));
  const pages = Math.max(1, Math.ceil(total / SCHEDULES_PAGE));
  const p = Math.min(Math.max(1, Math.floor(page)), pages);
  const schedules = await store.listSchedules({
    ...where(channel),
    limit: SCHEDULES_PAGE,
    offset: (p - 1) * SCHEDULES_PAGE,
  });
  return { schedules, total, page: p, pages, first: (p - 1) * SCHEDULES_PAGE + 1 };
}

const SCHEDULE_ID = /^[0-9a-f]{12}$/;

/**
 * The schedule a person means, in their channel however many it has: its number in `/tsai schedules`, its
 * ID, or its name (whatever its case). A name two schedules share is refused, asking for the number.
 */
export async function findSchedule(
  store: Pick<Store, 'listSchedules' | 'countSchedules' | 'getSchedule'>,
  channel: ScheduleChannel,
  ref: string,
): Promise<{ ok: true; schedule: Schedule } | OpFailure> {
  const r = ref.trim().replace(/^#/, '');
  const missing = async (): Promise<OpFailure> => {
    const total = await store.countSchedules(where(channel));
    return {
      ok: false,
      message: total
        ? `This channel has no schedule \`${r}\`: give its number in \`/tsai schedules\` (1 to ${total}), its name or its ID.`
        : 'This channel has no schedules.',
    };
  };
  if (/^\d{1,6}$/.test(r)) {
    const n = Number(r);
    const [s] = n >= 1 ? await store.listSchedules({ ...where(channel), offset: n - 1, limit: 1 }) : [];
    return s ? { ok: true, schedule: s } : missing();
  }
  if (SCHEDULE_ID.test(r.toLowerCase())) {
    const s = await store.getSchedule(r.toLowerCase());
    if (
      s &&
      s.status !== 'deleted' &&
      s.channelId === channel.channelId &&
      (!channel.teamId || s.teamId === channel.teamId)
    )
      return { ok: true, schedule: s };
  }
  const named = await store.listSchedules({ ...where(channel), name: r, limit: 2 });
  if (named.length === 1) return { ok: true, schedule: named[0]! };
  if (named.length > 1)
    return {
      ok: false,
      message: `More than one schedule here is named \`${r}\`: give its number in \`/tsai schedules\`, or its ID.`,
    };
  return missing();
}

import { randomUUID } from 'node:crypto';
import type { Store } from '../../core/records.js';
import { errText, type Logger } from '../../log.js';
import { onAcksPause } from './after-burst.js';
import { noticeOf } from './dispatch.js';
import type { Job, Notice } from './jobs.js';
import { interruptedText, placeOf } from './notices.js';

/** How long a hold outlives its process's last renewal; the acking thread renews a third of it. */
export const HOLD_LEASE_MS = 30_000;

/**
 * Accepted jobs gather until the acks pause for this long (at most `BURST_WAIT_MS`), then are written in
 * one transaction. Each write is a synchronous SQLite commit on the acking thread: written every event-loop
 * turn, a burst paid one commit per command, about 0.2 ms of the thread that must ack within 3 s; written
 * every 20 ms, a burst of `learn`s still paid a commit per 20 ms, each waiting for the follow-up worker's
 * write lock, and those waits stalled every ack in hand (the bench's ack rounds). Written when the acks
 * pause, a lone command is written 20 ms after it and a burst once it ends, and a job finished before then
 * (a quick read) is never written. The price: a process killed within a burst leaves the people of that
 * burst's jobs untold, at most a second of them, as it would anyway in the moment before a write.
 */
export const HOLD_BATCH_MS = 20;

/**
 * The follow-ups this process has in hand for somebody, kept in the store while they are in hand. A
 * process that dies (SIGKILL, the machine, the OOM killer) leaves its holds unrenewed, and another
 * replica, or this one started again, tells each person that what they asked may or may not have been
 * done (`tellAbandoned`): an acknowledged command is never answered by silence.
 *
 * Written by the acking thread, where a job is accepted, so the window in which a death loses a job
 * silently is the burst before the next write; writes wait for the acks to pause (`HOLD_BATCH_MS`) and
 * never delay a job: a store that does not answer only loses this safety net (logged).
 */
export interface FollowUpHolds {
  /** A job was accepted; `id` is its number in this process. Jobs nobody waits on are not held. */
  hold(id: number, job: Job): void;
  /** These jobs are finished (or their person was told otherwise). */
  release(ids: readonly number[]): void;
  /** Writes what is pending, then forgets every hold of this process (a clean stop told everybody). */
  close(): Promise<void>;
}

export interface FollowUpHoldsOptions {
  store: Pick<Store, 'holdFollowUps' | 'renewFollowUps' | 'releaseFollowUps'>;
  logger: Logger;
  leaseMs?: number;
  batchMs?: number;
  /** The machine's clock: holds are compared across processes. */
  clock?: () => number;
}

/**
 * What of a notice the store keeps: whom to tell, where, and what about (never text a person typed), never
 * a response URL (anyone
 * holding one can post as the bot to that person for half an hour). A dead process's people are told by
 * an ephemeral message in the channel, else a direct message.
 */
function keptNotice(n: Notice): Record<string, unknown> {
  return { ...placeOf(n), ...(n.tenant ? { tenant: n.tenant } : {}), what: n.keptWhat ?? n.what };
}

export function startFollowUpHolds(o: FollowUpHoldsOptions): FollowUpHolds {
  const owner = `process-${randomUUID()}`;
  const log = o.logger.child({ part: 'follow-up-holds' });
  const leaseMs = o.leaseMs ?? HOLD_LEASE_MS;
  const batchMs = o.batchMs ?? HOLD_BATCH_MS;
  const clock = o.clock ?? Date.now;
  const key = (id: number) => `${owner}:${id}`;
  let toHold = new Map<number, Notice>();
  let toRelease = new Set<number>();
  /** Held in the store, or about to be. */
  const live = new Set<number>();
  let writes: Promise<void> = Promise.resolve();
  const failed = (what: string) => (e: unknown) =>
    log.warn({ err: errText(e) }, `could not ${what} the follow-ups in hand; a death now would go untold`);

  const flush = () => {
    const holds = [...toHold];
    const releases = [...toRelease];
    toHold = new Map();
    toRelease = new Set();
    writes = writes.then(async () => {
      if (holds.length)
        await o.store
          .holdFollowUps(
            owner,
            clock() + leaseMs,
            holds.map(([id, notice]) => ({ id: key(id), notice: keptNotice(notice), heldAt: clock() })),
          )
          .catch(failed('record'));
      if (releases.length) await o.store.releaseFollowUps(owner, releases.map(key)).catch(failed('release'));
    });
  };
  const pause = onAcksPause(flush, { gapMs: batchMs });

  const renewal = setInterval(
    () => {
      if (live.size === 0) return;
      writes = writes.then(() =>
        o.store
          .renewFollowUps(owner, clock() + leaseMs)
          .then(() => undefined)
          .catch(failed('renew')),
      );
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  renewal.unref();

  return {
    hold(id, job) {
      let notice: Notice | undefined;
      try {
        notice = noticeOf(job);
      } catch (e) {
        // Called from a listener, which must never throw: such a job is only not held.
        log.warn({ err: errText(e), job: job.kind }, 'a job in hand could not be described; not held');
      }
      if (!notice) return;
      live.add(id);
      toHold.set(id, notice);
      pause.arrived();
    },
    release(ids) {
      for (const id of ids) {
        if (!live.delete(id)) continue;
        // Finished before it was written: it never has to reach the store.
        if (!toHold.delete(id)) toRelease.add(id);
      }
      if (toRelease.size) pause.arrived();
    },
    async close() {
      clearInterval(renewal);
      pause.runNow();
      await writes;
      live.clear();
      await o.store.releaseFollowUps(owner).catch(failed('release'));
    },
  };
}

/**
 * Tells the person behind each follow-up a dead process left in hand that it was cut off and may or may
 * not have reached the service; each hold is taken by one replica only. Returns how many were told.
 */
export async function tellAbandoned(
  store: Pick<Store, 'takeAbandonedFollowUps'>,
  tell: (notice: Notice, text: string) => Promise<unknown>,
  now: number,
): Promise<number> {
  let told = 0;
  for (;;) {
    const taken = await store.takeAbandonedFollowUps(now, 50);
    for (const h of taken) {
      const notice = h.notice as unknown as Notice;
      await tell(notice, interruptedText(notice));
      told++;
    }
    if (taken.length < 50) return told;
  }
}

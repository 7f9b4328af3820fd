import { randomUUID } from 'node:crypto';
import { every } from '../../core/every.js';
import type { Schedule } from '../../core/records.js';
import { type PerformDeps, performScheduled } from '../../core/schedules/perform.js';
import { previewRuns } from '../../core/schedules/preview.js';
import { ruleOf } from '../../core/schedules/rule.js';
import { type RunReport, type ScheduleEvent, ScheduleRunner } from '../../core/schedules/runner.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import { showResult } from '../command/show.js';
import type { Running } from '../feature.js';
import { postInChannel, say, tellUser } from '../reply.js';
import { goesBy } from '../users.js';
import { escapeMrkdwn } from '../views/mrkdwn.js';
import { askApproval } from './approval.js';
import { postScheduledDigest } from './digest.js';
import { channelEventMessage, eventMessage } from './views.js';

/** How often due schedules are looked for: the query reads only due rows, so idle schedules cost nothing. */
const ROUND_MS = 1_000;
const INTERRUPTED_EVERY_MS = 60_000;

/**
 * One run, shown as a command's outcome is: a flow announced in the schedule's channel and followed. The
 * run's place in the runner is for starting it: once the service has answered, the showing goes on beside
 * the next runs (`showing` holds it until the work stops), so runs due together start sooner.
 */
async function performRun(
  root: Bot,
  s: Schedule,
  plannedAt: number,
  showing: Set<Promise<void>>,
): Promise<RunReport> {
  // A run speaks through the installation of its schedule's workspace (a removal pauses its schedules).
  const bot = await root.forTeam(s.teamId ?? undefined);
  if (!bot)
    return {
      outcome: 'failed',
      detail:
        'The app is no longer installed in this Slack workspace; install it again, then resume the schedule.',
    };
  if (s.kind === 'digest') {
    try {
      await postScheduledDigest(bot, s, plannedAt);
      return { outcome: 'ok' };
    } catch (e) {
      bot.logger.warn({ schedule: s.id, err: errText(e) }, 'could not post a digest');
      return {
        outcome: 'failed',
        detail:
          'Slack did not take the digest in its channel; invite the bot there, or ask for one with `/tsai digest now`.',
      };
    }
  }
  const deps: PerformDeps = {
    store: bot.store,
    operations: bot.operations,
    displayName: async (userId) => goesBy(await bot.users.lookup(userId)),
    localeOf: async (userId) => (await bot.users.lookup(userId)).locale,
  };
  const { actor, result, unsaid, report } = await performScheduled(deps, s, plannedAt);
  // Failures go to the owner alone (by direct message: nobody may be in the channel at that hour).
  const to = result.ok
    ? { userId: s.ownerId, channelId: s.channelId, responseUrls: [] }
    : { userId: s.ownerId, responseUrls: [] };
  const shown = (async () => {
    await showResult(bot, result, { to, who: { userId: s.ownerId, commandText: actor.asked } });
    if (unsaid) await say(bot, to, escapeMrkdwn(unsaid));
  })().catch((e: unknown) =>
    bot.logger.warn({ schedule: s.id, err: errText(e) }, 'could not show a scheduled run'),
  );
  showing.add(shown);
  void shown.finally(() => showing.delete(shown));
  return report;
}

/**
 * What the runner tells, once: the owner by direct message; a schedule that stopped running as its owner
 * (paused for a right they lost, or back to its approvers) is told in its channel too, with who can take it
 * over or delete it, and a schedule back to its approvers gets its card again.
 */
async function tell(root: Bot, e: ScheduleEvent): Promise<void> {
  // Said through the schedule's own installation; where the app was removed since, nothing is said.
  const bot = await root.forTeam(e.schedule.teamId ?? undefined);
  if (!bot) return;
  const owner = { userId: e.schedule.ownerId, responseUrls: [] };
  if (e.kind !== 'paused' || e.ownerReachable) await tellUser(bot, owner, eventMessage(e));
  if (e.kind !== 'paused' && e.kind !== 'reapproval') return;
  const approvers = bot.operations.approvers.approverIdsOf(e.schedule);
  const body = channelEventMessage(e, approvers);
  await postInChannel(
    bot,
    { userId: e.schedule.ownerId, channelId: e.schedule.channelId, responseUrls: [] },
    body,
  );
  if (e.kind === 'reapproval')
    await askApproval(bot, e.schedule, previewRuns(ruleOf(e.schedule), bot.now().getTime(), 3));
}

/** The runner of every replica: due runs claimed once in the store, run through the one path. */
export async function startScheduleWork(bot: Bot): Promise<Running> {
  const owner = `schedules-${randomUUID()}`;
  const showing = new Set<Promise<void>>();
  const log = bot.logger.child({ part: 'schedules', owner });
  const runner = new ScheduleRunner({
    store: bot.store,
    now: bot.now,
    owner,
    catchUpMs: bot.config.schedules.catchUpMs,
    perform: (s, at) => performRun(bot, s, at, showing),
    tell: (e: ScheduleEvent) => tell(bot, e),
    log,
    // A replica holds what it runs as long as it holds a flow it reads, and a run claimed by a process that
    // died is given up as an approval's execution is: the same two settings, one meaning.
    leaseMs: bot.config.tracking.leaseMs,
    interruptedAfterMs: bot.config.approvals.interruptedAfterMs,
  });
  let lastSweep = 0;
  const rounds = every(ROUND_MS, async () => {
    let again = false;
    try {
      // A full batch means more are due: the next round starts at once, once this one is over.
      again = (await runner.round()) >= runner.batch;
      if (
        Date.now() - lastSweep >=
        Math.min(INTERRUPTED_EVERY_MS, bot.config.approvals.interruptedAfterMs / 2)
      ) {
        lastSweep = Date.now();
        await runner.sweepInterrupted();
      }
    } catch (e) {
      log.error({ err: errText(e) }, 'could not look for due schedules; trying again');
    } finally {
      if (again) setImmediate(() => rounds.now());
    }
  });
  return {
    async stop() {
      await rounds.stop();
      await Promise.allSettled([...showing]);
      await bot.store.releaseScheduleLeases(runner.owner).catch(() => 0);
    },
  };
}

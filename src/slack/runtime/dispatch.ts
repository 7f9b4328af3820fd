import type { Bot } from '../bot.js';
import { type FollowUp, followUpsOf } from '../feature.js';
import { featuresLoaded, featuresOf } from '../features.js';
import type { Job, JobKind, Notice } from './jobs.js';

let known: { features: number; table: ReadonlyMap<JobKind, FollowUp<Job>> } | undefined;

/**
 * The follow-up of a job kind, as the feature that makes such jobs declares it: every job comes from a
 * listener of a feature this thread loaded (features.ts), whose table is read again when more are loaded.
 */
function followUpOf(kind: JobKind): FollowUp<Job> | undefined {
  const features = featuresLoaded();
  if (known?.features !== features.length)
    known = { features: features.length, table: followUpsOf(features) };
  return known.table.get(kind);
}

/**
 * The second half of every listener: the follow-up its feature declares for the job's kind. Its code loads
 * on the first job of its kind, on whichever thread runs follow-ups.
 */
export async function runFollowUp(job: Job, bot: Bot): Promise<void> {
  // A job of a feature only some deployments run comes once this thread runs it (background.ts loads it).
  if (!followUpOf(job.kind)) await featuresOf(bot.config);
  const followUp = followUpOf(job.kind);
  if (!followUp) throw new Error(`no feature follows up a job of kind ${String(job.kind)}`);
  if (followUp.anyTenant) return followUp.run(job, bot);
  const speaking = await bot.forTeam(job.tenant);
  if (!speaking) {
    bot.logger.warn(
      { job: job.kind, tenant: job.tenant },
      'a follow-up for a workspace the app is no longer installed in; nothing done',
    );
    return;
  }
  return followUp.run(job, speaking);
}

/**
 * Whom to tell about a job its thread lost, and what to call it, as its feature says; undefined for jobs
 * nobody waits on. A job comes from a payload, whose values are not always the strings they should be (a
 * garbage button value).
 */
export function noticeOf(job: Job): Notice | undefined {
  const notice = followUpOf(job.kind)?.notice?.(job);
  return notice && job.tenant ? { ...notice, tenant: job.tenant } : notice;
}

/** Whether the job must open a view within its trigger's 3 seconds, as its feature says. */
export function opensView(job: Job): boolean {
  return followUpOf(job.kind)?.opensView?.(job) === true;
}

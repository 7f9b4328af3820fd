import { isMainThread } from 'node:worker_threads';
import { inSpan, tracingOn } from '../../tracing/trace.js';
import type { Bot } from '../bot.js';
import { runFollowUp } from './dispatch.js';
import type { Job } from './jobs.js';

/**
 * A job's follow-up, in the trace of the request it came from (the job carries it as data, across the
 * thread): `follow-up command`, holding the gate, the service call, the store and the replies in Slack.
 */
export function runFollowUpTraced(job: Job, bot: Bot): Promise<void> {
  if (!tracingOn()) return runFollowUp(job, bot);
  return inSpan(
    `follow-up ${job.kind}`,
    {
      'slack.job.kind': job.kind,
      'slack.team.id': job.tenant,
      // Where it ran: the follow-up worker, or the acking thread (a view to open within 3 s).
      'thread.name': isMainThread ? 'acking' : 'follow-ups',
    },
    () => runFollowUp(job, bot),
    { kind: 'consumer', parent: job.trace },
  );
}

import type { Bot } from '../bot.js';
import type { Job } from './jobs.js';

/**
 * The second half of every listener: each job kind and the feature function that does its work after the
 * acknowledgement. The code loads on the first job of its kind, on whichever thread runs follow-ups.
 */
export async function runFollowUp(job: Job, bot: Bot): Promise<void> {
  switch (job.kind) {
    case 'command':
      return (await import('../command/follow-up.js')).followCommand(job.command, bot);
    case 'form-open':
      return (await import('../forms/open.js')).followShortcut(job, bot);
    case 'form-range':
      return (await import('../forms/interact.js')).followRangeChange(job, bot);
    case 'form-reopen':
      return (await import('../forms/open.js')).followReopen(job, bot);
    case 'form-submitted':
      return (await import('../forms/submit.js')).followSubmission(job.submission, bot);
    case 'approval-click':
      return (await import('../approvals/follow-up.js')).followApprovalClick(job, bot);
    case 'approval-reject':
      return (await import('../approvals/follow-up.js')).followRejectReason(job, bot);
    case 'flow-next':
      return (await import('../flows/next-step.js')).followNextStep(job, bot);
    case 'home-opened':
      return (await import('../home/follow-up.js')).followHomeOpened(job, bot);
    case 'home-decision':
      return (await import('../home/follow-up.js')).followHomeDecision(job, bot);
  }
}

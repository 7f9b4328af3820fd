import type { Audience } from '../reply.js';
import { code } from '../views/mrkdwn.js';
import type { Job, Notice } from './jobs.js';

/**
 * Whom to tell about a job its thread lost, and what to call it; undefined for jobs nobody waits on. A job
 * comes from a payload, whose values are not always the strings they should be (a garbage button value).
 */
export function noticeOf(job: Job): Notice | undefined {
  switch (job.kind) {
    case 'command': {
      const c = job.command;
      return {
        userId: c.user_id,
        channelId: c.channel_id,
        responseUrl: c.response_url,
        what: code(`${c.command} ${c.text}`.trim()),
      };
    }
    case 'form-submitted':
      return {
        userId: job.submission.userId,
        channelId: job.submission.channelId,
        ...(job.submission.responseUrls[0] ? { responseUrl: job.submission.responseUrls[0] } : {}),
        what: `your ${job.submission.meta.kind} form`,
      };
    case 'approval-click':
      return {
        userId: job.userId,
        ...(job.channelId ? { channelId: job.channelId } : {}),
        ...(job.responseUrl ? { responseUrl: job.responseUrl } : {}),
        what: `your ${job.action} click on request ${code(String(job.requestId))}`,
      };
    case 'approval-reject':
      return { userId: job.userId, what: `your rejection of request ${code(String(job.requestId))}` };
    case 'home-decision':
      return {
        userId: job.userId,
        what: `your ${job.action} click on request ${code(String(job.requestId))} in the Home tab`,
      };
    default:
      return undefined;
  }
}

/** Where to reach the person behind a notice: the way they asked first. */
export function audienceOf(n: Notice): Audience {
  return {
    userId: n.userId,
    ...(n.channelId ? { channelId: n.channelId } : {}),
    responseUrls: n.responseUrl ? [n.responseUrl] : [],
  };
}

/** The follow-up thread stopped while it had this job in hand: nobody knows whether it reached the service. */
export function interruptedText(n: Notice): string {
  return `The bot was interrupted while handling ${n.what}. It may or may not have reached the service: check with \`/tsai flow <flow-id>\` or the service's Activity view before trying again.`;
}

/** The follow-up thread is restarting and its waiting line is full: nothing was done. */
export function restartingText(n: Notice): string {
  return `The bot is restarting and could not take ${n.what}; nothing was done. Try again in a minute.`;
}

/** The bot was stopping and this job was still in hand when its time ran out. */
export function stoppedText(n: Notice): string {
  return `The bot was stopping and could not finish ${n.what} in time. It may or may not have reached the service: check with \`/tsai flow <flow-id>\` or the service's Activity view before trying again.`;
}

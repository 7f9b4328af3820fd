import { decideClick, describeAction, statusText } from '../approvals/index.js';
import type { Bot } from '../bot.js';
import { type Audience, say } from '../reply.js';
import type { Job } from '../runtime/jobs.js';
import { code, mention } from '../views/mrkdwn.js';
import { HOME_OPEN_DELAY_MS, homes } from './publish.js';

/** The Home tab was opened: publish it (visits in quick succession, and a publish on its way, are joined). */
export async function followHomeOpened(job: Extract<Job, { kind: 'home-opened' }>, bot: Bot): Promise<void> {
  homes(bot).request(
    { teamId: job.teamId, userId: job.userId },
    { delayMs: HOME_OPEN_DELAY_MS, ...(job.hash ? { hash: job.hash } : {}) },
  );
}

/**
 * Approve or Reject in the Home tab is decided as on the card (`decideClick`: the same rules, the same
 * exactly-once decision, the same presentation on the request's card and to its requester). A Home click
 * has no response_url, so the clicker is told privately by direct message, and their Home is published
 * again. Reject opens the card's reason form.
 */
export async function followHomeDecision(
  job: Extract<Job, { kind: 'home-decision' }>,
  bot: Bot,
): Promise<void> {
  const to: Audience = { userId: job.userId, responseUrls: [] };
  const tell = (text: string, more?: Parameters<typeof say>[3]) => say(bot, to, text, more);
  try {
    const outcome = await decideClick(bot, { ...job, surface: 'home' }, tell);
    if (outcome?.kind === 'executed' || outcome?.kind === 'failed' || outcome?.kind === 'outcome-unknown') {
      const r = outcome.request;
      // On the card the approver sees the result in place; from the Home they are told.
      await tell(
        `${mention(r.requesterId)}'s request ${code(r.id)} to ${describeAction(r)}: ${statusText(r)}`,
      );
    }
  } finally {
    if (job.teamId) homes(bot).request({ teamId: job.teamId, userId: job.userId });
  }
}

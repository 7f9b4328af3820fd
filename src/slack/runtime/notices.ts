import type { Bot } from '../bot.js';
import { type Audience, say } from '../reply.js';
import { code } from '../views/mrkdwn.js';
import type { Notice } from './jobs.js';

/** How a person looks a flow up, as a code span (its placeholder escaped, as all mrkdwn text is). */
const FLOW_LOOKUP = code('/tsai flow <flow-id>');

/** Tells the person behind a notice, through the installation of their tenant; false when it is gone. */
export async function tell(bot: Bot, n: Notice, text: string): Promise<boolean> {
  const speaking = await bot.forTeam(n.tenant);
  return speaking ? say(speaking, audienceOf(n), text) : false;
}

/** Where the person behind a notice asked: whom, the conversation and thread, and how it reads commands. */
export function placeOf(n: Notice): Omit<Audience, 'responseUrls'> {
  return {
    userId: n.userId,
    ...(n.channelId ? { channelId: n.channelId } : {}),
    ...(n.threadTs ? { threadTs: n.threadTs } : {}),
    ...(n.startsThread ? { startsThread: true } : {}),
    ...(n.direct ? { direct: true } : {}),
    ...(n.typedOn ? { typedOn: n.typedOn } : {}),
  };
}

/** Where to reach the person behind a notice: the way they asked first. */
export function audienceOf(n: Notice): Audience {
  return { ...placeOf(n), responseUrls: n.responseUrl ? [n.responseUrl] : [] };
}

/** The follow-up thread stopped while it had this job in hand: nobody knows whether it reached the service. */
export function interruptedText(n: Notice): string {
  return `The bot was interrupted while handling ${n.what}. It may or may not have reached the service: check with ${FLOW_LOOKUP} or the service's Activity view before trying again.`;
}

/** The follow-up thread is restarting and its waiting line is full: nothing was done. */
export function restartingText(n: Notice): string {
  return `The bot is restarting and could not take ${n.what}; nothing was done. Try again in a minute.`;
}

/** The bot was stopping and this job was still in hand when its time ran out. */
export function stoppedText(n: Notice): string {
  return `The bot was stopping and could not finish ${n.what} in time. It may or may not have reached the service: check with ${FLOW_LOOKUP} or the service's Activity view before trying again.`;
}

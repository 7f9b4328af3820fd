import type { Audience } from '../reply.js';
import type { MessageJob } from './jobs.js';

/**
 * Where a message's answers go: a mention is answered in the thread it is in, or the thread it starts,
 * except what only its author may see, which a mention at the top of a channel gets in the channel, where
 * they are looking; a direct message in the direct messages (in its thread, when it is a reply in one).
 */
export function audienceOf(job: MessageJob): Audience {
  if (job.kind === 'direct-message')
    return {
      userId: job.userId,
      channelId: job.channelId,
      direct: true,
      ...(job.threadTs ? { threadTs: job.threadTs } : {}),
      typedOn: 'direct-message',
      responseUrls: [],
    };
  return {
    userId: job.userId,
    channelId: job.channelId,
    threadTs: job.threadTs ?? job.ts,
    ...(job.threadTs ? {} : { startsThread: true }),
    typedOn: 'mention',
    responseUrls: [],
  };
}

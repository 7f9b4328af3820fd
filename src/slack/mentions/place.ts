import type { Audience } from '../reply.js';
import type { MessageJob } from './jobs.js';

/**
 * Where a message's answers go: a mention is answered in the thread it is in, or the thread it starts; a
 * direct message in the direct messages (in its thread, when it is a reply in one).
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
    typedOn: 'mention',
    responseUrls: [],
  };
}

import { isFormId } from '../../core/forms/fields.js';
import { parseJsonObject } from '../../core/forms/json-object.js';
import { fieldsFromCommand } from '../../core/forms/prefill.js';
import { isServiceId } from '../../core/ids.js';
import type { Bot } from '../bot.js';
import { say } from '../reply.js';
import type { Job } from '../runtime/jobs.js';
import { openForm } from './open.js';

/**
 * A next-step button under a finished flow ("Score with this model", "Learn more data"): the form it names,
 * with the flow's model, its workspace and its dataspec filled into the fields the form has for them.
 */
export async function followNextStep(job: Extract<Job, { kind: 'flow-next' }>, bot: Bot): Promise<void> {
  const v = parseJsonObject(job.value);
  const given: Record<string, string> = {};
  for (const key of ['model', 'workspace', 'dataspec'])
    if (typeof v?.[key] === 'string' && isServiceId(v[key] as string)) given[key] = v[key] as string;
  const to = { userId: job.userId, responseUrls: job.responseUrl ? [job.responseUrl] : [] };
  if (!given.model || !isFormId(job.step))
    return void (await say(bot, to, 'This button does not name a model; nothing was opened.'));
  await openForm(bot, {
    triggerId: job.triggerId,
    userId: job.userId,
    ...(job.teamId ? { teamId: job.teamId } : {}),
    kind: job.step,
    fields: fieldsFromCommand(job.step, given),
    origin: 'command',
    ...(job.channelId ? { channel: job.channelId } : {}),
    ...(job.responseUrl ? { responseUrl: job.responseUrl } : {}),
  });
}

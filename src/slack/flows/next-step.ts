import type { ModalFields } from '../../core/forms/fields.js';
import { parseJsonObject } from '../../core/forms/json-object.js';
import { isServiceId } from '../../core/ids.js';
import type { Bot } from '../bot.js';
import { openForm } from '../forms/index.js';
import { say } from '../reply.js';
import type { Job } from '../runtime/jobs.js';

/**
 * "Score with this model" and "Learn more data" under a finished learn: the score or relearn form, with
 * the model, its workspace and (for scoring) the dataspec it learned from already filled in.
 */
export async function followNextStep(job: Extract<Job, { kind: 'flow-next' }>, bot: Bot): Promise<void> {
  const v = parseJsonObject(job.value);
  const id = (k: string) =>
    typeof v?.[k] === 'string' && isServiceId(v[k] as string) ? (v[k] as string) : undefined;
  const model = id('model');
  const to = { userId: job.userId, responseUrls: job.responseUrl ? [job.responseUrl] : [] };
  if (!model) return void (await say(bot, to, 'This button does not name a model; nothing was opened.'));
  const workspace = id('workspace');
  const dataspec = id('dataspec');
  const fields: ModalFields = {
    model,
    ...(workspace ? { workspace } : {}),
    ...(job.step === 'score'
      ? dataspec
        ? { dataMode: 'dataspec', dataspecId: dataspec }
        : { dataMode: 'new' }
      : {}),
  };
  await openForm(bot, {
    triggerId: job.triggerId,
    userId: job.userId,
    ...(job.teamId ? { teamId: job.teamId } : {}),
    kind: job.step,
    fields,
    origin: 'command',
    ...(job.channelId ? { channel: job.channelId } : {}),
    ...(job.responseUrl ? { responseUrl: job.responseUrl } : {}),
  });
}

import { idsOf } from '../../core/catalog/kind.js';
import { isFormId } from '../../core/forms/fields.js';
import { parseJsonObject } from '../../core/forms/json-object.js';
import { fieldsFromCommand } from '../../core/forms/prefill.js';
import type { AnyEntry, NextStepSpec } from '../../core/operations/registry/index.js';
import { nextStepOf } from '../../core/tracking/outputs.js';
import type { Bot } from '../bot.js';
import { NEXT_STEP_THREAD } from '../flows/index.js';
import { type Audience, say } from '../reply.js';
import type { Job } from '../runtime/jobs.js';
import { followAsked } from './follow-up.js';

type NextJob = Extract<Job, { kind: 'flow-next' }>;

/**
 * A next-step button under a finished flow ("Score with this model", "Take it live"): the next step its
 * entry declares, given what the finished flow yielded. An entry with a form opens it with those
 * arguments filled in; one without runs its command with them, as the person who clicked would type it
 * (a live start is filed for approval, as typed).
 */
export async function followNextStep(job: NextJob, bot: Bot): Promise<void> {
  const threadTs = job.channelId ? threadOfValue(job.value) : undefined;
  const to: Audience = {
    userId: job.userId,
    ...(job.channelId ? { channelId: job.channelId } : {}),
    // Under a flow asked in a thread, where only a mention can ask: answered there, written as mentions,
    // and not through the click's response_url, which posts at the top of the channel.
    ...(threadTs ? { threadTs, typedOn: 'mention' as const } : {}),
    responseUrls: job.responseUrl && !threadTs ? [job.responseUrl] : [],
  };
  const next = nextStepOf(job.step);
  const given = next ? givenTo(next.entry, job.value) : {};
  const missing = next?.step.needs.filter((k) => !given[k]) ?? [];
  if (!next || missing.length > 0)
    return void (await say(
      bot,
      to,
      `This button does not say which ${missing.join(' and ') || 'model'} to use; nothing was done.`,
    ));
  const { entry, step } = next;
  if (entry.form && isFormId(entry.form.id)) {
    const { openForm } = await import('../forms/open.js');
    return void (await openForm(bot, {
      triggerId: job.triggerId,
      userId: job.userId,
      ...(job.teamId ? { teamId: job.teamId } : {}),
      kind: entry.form.id,
      fields: fieldsFromCommand(entry.form.id, given),
      origin: 'command',
      ...(job.channelId ? { channel: job.channelId } : {}),
      ...(threadTs ? { threadTs } : job.responseUrl ? { responseUrl: job.responseUrl } : {}),
    }));
  }
  await runNextStep(bot, job, to, entry, step, given);
}

/** The thread a button under a flow asked in a thread answers in (flows/views.ts), when it names one. */
function threadOfValue(value: string): string | undefined {
  const t = parseJsonObject(value)?.[NEXT_STEP_THREAD];
  return typeof t === 'string' && /^\d{1,12}\.\d{1,8}$/.test(t) ? t : undefined;
}

/** The IDs a button carries for the arguments its entry takes; anything else is left out. */
function givenTo(entry: AnyEntry, value: string): Record<string, string> {
  const v = parseJsonObject(value);
  const given: Record<string, string> = {};
  for (const arg of entry.args) {
    const x = v?.[arg.key];
    if (typeof x === 'string' && (!arg.lookup || x.split(',').every((id) => idsOf(arg.lookup).is(id))))
      given[arg.key] = x;
  }
  return given;
}

/**
 * The command a next step stands for, with the arguments it needs alone: read and run by the one command
 * path as if the person had typed it where the button is, and answered there.
 */
async function runNextStep(
  bot: Bot,
  job: NextJob,
  to: Audience,
  entry: AnyEntry,
  step: NextStepSpec,
  given: Record<string, string>,
): Promise<void> {
  const words = [...entry.command.words, ...(step.word ? [step.word] : [])];
  const text = [...words, ...step.needs.map((k) => `${k}=${given[k]}`)].join(' ');
  if (!job.channelId)
    return void (await say(
      bot,
      to,
      `Nothing was done: this button works in a conversation. Type \`/tsai ${text}\`.`,
    ));
  await followAsked(bot, {
    text,
    userId: job.userId,
    ...(job.teamId ? { teamId: job.teamId } : {}),
    channelId: job.channelId,
    via: 'command',
    surface: 'button',
    to,
    triggerId: job.triggerId,
  });
}

import { randomUUID } from 'node:crypto';
import { isFormId } from '../../core/forms/fields.js';
import { fieldsFromCommand } from '../../core/forms/prefill.js';
import { interpretCommand } from '../../core/interpret.js';
import { isSentence, type Reading, readSentence, startsWithCommand } from '../../core/plain/index.js';
import type { Asked } from '../asked.js';
import type { Bot } from '../bot.js';
import { type Came, followAsked } from '../command/index.js';
import { keepFor } from '../kept.js';
import { personOf } from '../person.js';
import { tellUser } from '../reply.js';
import { saveDraft } from '../views/form-drafts.js';
import { type Offer, offeredMessage, questionMessage, unplacedMessage } from './views.js';

/** How long a reading's buttons work: as long as a message is remembered as read. */
export const KEPT_FOR_MS = 24 * 60 * 60_000;

/**
 * Where a reading is kept: under its tenant and a random ID. Its buttons carry only the ID, and a click
 * looks it up under the clicker's own tenant, so a button value copied into another installation's
 * payload finds nothing there; only the asker may then act on it (click.ts).
 */
export const readingKey = (teamId: string | undefined, id: string) => `plain:${teamId ?? ''}:${id}`;

/**
 * What the bot keeps of a reading it offered, under `readingKey`: the command as its asker
 * would have typed it where they asked (a token already masked), and the commands the sentence came near.
 */
export interface Offered {
  asked: Asked;
  specs: string[];
}

/**
 * A message written to the bot (a mention, the Messages tab, the assistant pane), as the command it types
 * or the plain request it says. A command, even a refused one, takes the one command path as today. A
 * sentence is read (core/plain/) and answered: a question that changes nothing at once, through that same
 * path; anything else with what it was read as and buttons, and nothing is done before a click. A sentence
 * that names no command is told so plainly, with what works.
 */
export async function readAsked(bot: Bot, asked: Asked): Promise<Came> {
  if (!isSentence(asked.text)) return followAsked(bot, asked);
  const person = personOf(bot, asked);
  const read = await readSentence(bot.store, {
    text: asked.text,
    ...(asked.teamId ? { teamId: asked.teamId } : {}),
    channelId: asked.channelId,
    person,
    now: bot.now,
  });
  if (read.kind === 'unplaced') {
    // `learn a model please` with nothing else to read is that command, refused as typed (its usage), as
    // is a slip of a command's word (`worksapce create …`: did you mean `workspace`?).
    if (startsWithCommand(asked.text)) return followAsked(bot, asked);
    await tellUser(bot, asked.to, unplacedMessage(read.masked, asked.correctable === true));
    return { kind: 'misread' };
  }
  const run = (r: Reading): Asked => {
    const { triggerId: _, correctable: __, ...rest } = asked;
    return { ...rest, text: r.command };
  };
  if (read.kind === 'read' && !read.reading.spec.mutating) {
    await tellUser(bot, asked.to, questionMessage(read.reading.command, read.masked));
    return followAsked(bot, run(read.reading));
  }
  const readings = read.kind === 'read' ? [read.reading] : read.readings;
  const specs = [...readings.map((r) => r.spec.id), ...read.others.map((s) => s.id)];
  const offers = await Promise.all(
    readings.map((r) => offer(bot, { ...run(r), userName: asked.userName }, r, { specs, person })),
  );
  await tellUser(
    bot,
    asked.to,
    offeredMessage(offers, { ...(read.kind === 'readings' ? { why: read.why } : {}), masked: read.masked }),
  );
  return { kind: 'answered' };
}

/**
 * One reading, checked as its command would be read when typed (names, defaults, range), without running
 * anything, and kept for its buttons: its command, and its form filled in with what was read.
 */
async function offer(
  bot: Bot,
  asked: Asked,
  reading: Reading,
  o: { specs: string[]; person: ReturnType<typeof personOf> },
): Promise<Offer> {
  const checked = await interpretCommand(bot.store, {
    text: asked.text,
    ...(asked.teamId ? { teamId: asked.teamId } : {}),
    channelId: asked.channelId,
    now: bot.now,
    person: o.person,
  });
  const id = randomUUID();
  const { userName: _, ...kept } = asked;
  await keepFor(
    bot,
    readingKey(asked.teamId, id),
    { asked: kept, specs: o.specs } satisfies Offered,
    KEPT_FOR_MS,
  );
  const formId = checked.kind === 'form' ? checked.form : reading.form?.id;
  let form: string | undefined;
  if (formId && isFormId(formId)) {
    const fields =
      checked.kind === 'form' ? checked.fields : fieldsFromCommand(formId, reading.form?.given ?? {});
    form = await saveDraft(bot.store, bot.now(), {
      kind: formId,
      userId: asked.userId,
      channel: asked.channelId,
      ...(asked.to.threadTs ? { threadTs: asked.to.threadTs } : {}),
      fields,
    });
  }
  return {
    command: reading.command,
    id,
    ...(form ? { form } : {}),
    ...(checked.kind === 'refused' ? { refused: checked.failure } : {}),
    missing: checked.kind === 'form',
    unread: reading.unread,
  };
}

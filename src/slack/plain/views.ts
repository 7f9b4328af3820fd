import type { types } from '@slack/bolt';
import { COMMANDS, type CommandSpec } from '../../core/grammar/commands.js';
import type { OpFailure } from '../../core/outcome.js';
import { MODAL_ACTION } from '../views/form-actions.js';
import type { MessageBody } from '../views/messages.js';
import {
  button,
  code,
  context,
  escapeMrkdwn,
  type KnownBlock,
  limitBlocks,
  section,
} from '../views/mrkdwn.js';
import { buttonValue, PLAIN_ACTION } from './listener.js';

/** A reading offered: its command, the ID it is kept under, its form's draft, why it cannot run. */
export interface Offer {
  command: string;
  id: string;
  /** The value of the button that opens its form with what was read (a draft's). */
  form?: string;
  /** It cannot run as read (an unknown name, a range in the future): why, said as a typed command's would be. */
  refused?: OpFailure;
  /** It leaves arguments its form asks for. */
  missing: boolean;
  unread: string[];
}

/** How many plain phrasings the answer to a sentence nobody could place shows. */
const SHOWN_PHRASINGS = 6;

/** A command as the slash command types it: each surface's message rewrites it as typed there. */
const typed = (command: string) => code(`/tsai ${command}`);

const MASKED = 'A token-like value in your message was not used, kept or shown.';

/** The buttons under one reading: Run it (unless it cannot run), Open the form (when it has one). */
function readingButtons(o: Offer, withOther: boolean, at: number): KnownBlock {
  const elements: types.Button[] = [];
  if (!o.refused) elements.push(button('Run it', PLAIN_ACTION.run, buttonValue(o.id, o.missing), 'primary'));
  if (o.form) elements.push(button('Open the form', MODAL_ACTION.reopen, o.form));
  if (withOther) elements.push(button('Not what I meant', PLAIN_ACTION.other, o.id));
  return { type: 'actions', block_id: `plain_reading_${at}`, elements };
}

/** What one reading says under its command: why it cannot run, or what a click does; what was left out. */
function readingNotes(o: Offer): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  if (o.refused) {
    blocks.push(section(`:warning: It cannot run as it is: ${escapeMrkdwn(o.refused.message)}`));
    if (o.refused.example) blocks.push(context(`*Example:* ${code(o.refused.example)}`));
  } else if (o.missing)
    blocks.push(context('It needs more than your message gave: *Open the form* holds what it did give.'));
  for (const u of o.unread) blocks.push(context(escapeMrkdwn(u)));
  return blocks;
}

/**
 * "I read this as" and the exact command, with its buttons; or, when the sentence reads more than one way,
 * each reading as a command with its own. Nothing has been done: the text says so.
 */
export function offeredMessage(offers: readonly Offer[], o: { why?: string; masked: boolean }): MessageBody {
  const blocks: KnownBlock[] = [];
  const first = offers[0]!;
  if (offers.length === 1) {
    blocks.push(section(`:mag: I read this as ${typed(first.command)}`));
    blocks.push(...readingNotes(first));
    if (!first.refused)
      blocks.push(
        context(
          'Nothing is done until you click *Run it*: it then runs as if you had typed it, checked as a typed command is.',
        ),
      );
    blocks.push(readingButtons(first, true, 0));
  } else {
    blocks.push(
      section(
        `:thinking_face: Your message reads more than one way (${escapeMrkdwn(o.why ?? '')}). Which did you mean? Nothing is done until you click.`,
      ),
    );
    offers.forEach((offer, i) => {
      blocks.push(
        section(`• ${typed(offer.command)}`),
        ...readingNotes(offer),
        readingButtons(offer, false, i),
      );
    });
    blocks.push({
      type: 'actions',
      elements: [button('Not what I meant', PLAIN_ACTION.other, first.id)],
    });
  }
  if (o.masked) blocks.push(context(MASKED));
  const text =
    offers.length === 1
      ? `I read this as /tsai ${first.command}. Nothing is done until you click Run it.`
      : `Your message reads more than one way: ${offers.map((x) => `/tsai ${x.command}`).join(' or ')}.`;
  return { text: escapeMrkdwn(text), blocks: limitBlocks(blocks) };
}

/** A question read from a sentence, answered at once: what it was read as, above the answer. */
export function questionMessage(command: string, masked: boolean): MessageBody {
  const blocks = [section(`:mag: I read this as ${typed(command)}`)];
  if (masked) blocks.push(context(MASKED));
  return { text: escapeMrkdwn(`I read this as /tsai ${command}`), blocks };
}

/** Each command's first plain phrasing, with its example as typed: what works, either way. */
function phrasings(specs: readonly CommandSpec[]): string[] {
  return specs
    .filter((s) => s.said?.length)
    .map((s) => `• “${escapeMrkdwn(s.said![0]!.phrases[0]!)}”, or as a command: ${code(s.examples[0]!)}`);
}

/** The commands people ask for most, first: those that change something, then the questions. */
const byUse = () => [...COMMANDS.filter((c) => c.mutating), ...COMMANDS.filter((c) => !c.mutating)];

/** A sentence in which the bot found no command: said plainly, with what it does read, either way. */
export function unplacedMessage(masked: boolean, correctable: boolean): MessageBody {
  const lines = phrasings(byUse()).slice(0, SHOWN_PHRASINGS);
  const blocks: KnownBlock[] = [
    section(
      ':shrug: I could not tell what you are asking for: nothing was done. Say what to do in your own words, with the names the bot knows, or type a command. For example:',
    ),
    section(lines.join('\n')),
    context(`${code('/tsai help')} lists every command.`),
  ];
  if (correctable)
    blocks.push(context('Edit your message to say it otherwise, and I will read it again, once.'));
  if (masked) blocks.push(context(MASKED));
  return {
    text: 'I could not tell what you are asking for: nothing was done. /tsai help lists every command.',
    blocks,
  };
}

/**
 * "Not what I meant": the command read and the others the sentence came near, each exactly as typed, with
 * an example that works, and how to say it again.
 */
export function otherWaysMessage(specs: readonly CommandSpec[]): MessageBody {
  const shown = (specs.length ? specs : byUse()).slice(0, 3);
  const blocks: KnownBlock[] = [
    section(':memo: Nothing was done. Here is each command your message came near, exactly as typed:'),
  ];
  for (const s of shown)
    blocks.push(
      section(
        `*${escapeMrkdwn(s.summary.split(/[.(]/)[0]!.trim())}*\n${code(s.usage)}\n*Example:* ${code(s.examples[0]!)}`,
      ),
    );
  blocks.push(
    context(
      'Or say it again in other words: give names as the bot knows them, and the time range as you would say it.',
    ),
  );
  return { text: 'Nothing was done. Here is each command your message came near, exactly as typed.', blocks };
}

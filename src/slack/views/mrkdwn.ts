import type { types } from '@slack/bolt';

export type KnownBlock = types.KnownBlock;

/** Block Kit limits the builders respect (see the Slack fact sheet, A.9). */
export const LIMITS = {
  sectionText: 3000,
  fieldText: 2000,
  fields: 10,
  blocksPerMessage: 50,
  contextElements: 10,
  headerText: 150,
  optionValue: 75,
  fallbackText: 3000,
} as const;

const TRUNCATED = '… (truncated)';

/** Escapes Slack's control characters so user or service text can never form mentions or links. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escaped text in a code span; backticks inside would end the span, so they become look-alikes. */
export function code(text: string): string {
  const flat = text.replace(/`/g, 'ˋ').replace(/\r?\n/g, ' ');
  return `\`${escapeMrkdwn(flat === '' ? ' ' : flat)}\``;
}

/**
 * Cuts already-escaped mrkdwn to `max` characters with a visible marker, without splitting an
 * entity (`&amp;`) or a surrogate pair.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - TRUNCATED.length));
  cut = cut.replace(/&[a-z]{0,4}$/, '');
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return cut + TRUNCATED;
}

export function section(mrkdwn: string): KnownBlock {
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: truncate(mrkdwn, LIMITS.sectionText), verbatim: true },
  };
}

export function fieldsSection(fields: string[]): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  for (let i = 0; i < fields.length; i += LIMITS.fields) {
    blocks.push({
      type: 'section',
      fields: fields
        .slice(i, i + LIMITS.fields)
        .map((f) => ({ type: 'mrkdwn' as const, text: truncate(f, LIMITS.fieldText), verbatim: true })),
    });
  }
  return blocks;
}

export function context(mrkdwn: string): KnownBlock {
  return {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: truncate(mrkdwn, LIMITS.sectionText), verbatim: true }],
  };
}

/** Keeps a message within the block limit, saying visibly how much was left out. */
export function limitBlocks(blocks: KnownBlock[], max: number = LIMITS.blocksPerMessage): KnownBlock[] {
  if (blocks.length <= max) return blocks;
  const kept = blocks.slice(0, max - 1);
  return [...kept, context(`… ${blocks.length - kept.length} more block(s) not shown (message too long).`)];
}

/** A Slack user mention for an ID we got from Slack itself (never from free text). */
export function mention(userId: string): string {
  return /^[UW][A-Z0-9]+$/.test(userId) ? `<@${userId}>` : code(userId);
}

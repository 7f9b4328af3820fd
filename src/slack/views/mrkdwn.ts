import type { types } from '@slack/bolt';
import { LIMITS } from '../../wire/block-kit.js';

export type KnownBlock = types.KnownBlock;
export { LIMITS };

const TRUNCATED = '… (truncated)';

/** A button of a message: its words, its action and value, and its style when it has one. */
export function button(
  text: string,
  actionId: string,
  value: string,
  style?: 'primary' | 'danger',
): types.Button {
  return {
    type: 'button',
    text: { type: 'plain_text', text },
    action_id: actionId,
    value,
    ...(style ? { style } : {}),
  };
}

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
 * `text` in at most `max` characters, ending with `marker` when shortened. It ends at the last space or
 * line break that fits, so no word is cut in two; only a single word longer than all the room (a pasted
 * token) is cut inside, and then never through an escaped entity (`&amp;`) or a surrogate pair.
 */
export function shorten(text: string, max: number, marker = '…'): string {
  if (text.length <= max) return text;
  const room = Math.max(0, max - marker.length);
  let cut = text.slice(0, room);
  const boundary = /\s/.test(text[room] ?? '') ? room : cut.search(/\s\S*$/);
  if (boundary > 0) cut = cut.slice(0, boundary).trimEnd();
  else {
    cut = cut.replace(/&[a-z]{0,4}$/, '');
    if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  }
  return cut + marker;
}

/** Already-escaped mrkdwn in at most `max` characters, with a visible marker when shortened. */
export function truncate(text: string, max: number): string {
  return shorten(text, max, TRUNCATED);
}

export function section(mrkdwn: string): KnownBlock {
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: truncate(mrkdwn, LIMITS.text), verbatim: true },
  };
}

export function fieldsSection(fields: string[]): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  for (let i = 0; i < fields.length; i += LIMITS.sectionFields) {
    blocks.push({
      type: 'section',
      fields: fields.slice(i, i + LIMITS.sectionFields).map((f) => ({
        type: 'mrkdwn' as const,
        text: truncate(f, LIMITS.sectionFieldText),
        verbatim: true,
      })),
    });
  }
  return blocks;
}

export function context(mrkdwn: string): KnownBlock {
  return {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: truncate(mrkdwn, LIMITS.text), verbatim: true }],
  };
}

/** Keeps a message within the block limit, saying visibly how much was left out. */
export function limitBlocks(blocks: KnownBlock[], max: number = LIMITS.blocksPerMessage): KnownBlock[] {
  if (blocks.length <= max) return blocks;
  const kept = blocks.slice(0, max - 1);
  const left = blocks.length - kept.length;
  return [...kept, context(`… ${left} more ${left === 1 ? 'part' : 'parts'} not shown (message too long).`)];
}

/** `1 flow`, `3 flows`: a count with its noun in the right number (`many` for irregular plurals). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A Slack user mention for an ID we got from Slack itself (never from free text). */
export function mention(userId: string): string {
  return /^[UW][A-Z0-9]+$/.test(userId) ? `<@${userId}>` : code(userId);
}

/**
 * A time Slack renders in each viewer's own zone, with a UTC fallback for clients (and the local
 * stand-in) that do not: `<!date^…^{date_short_pretty} {time}|2026-11-22 10:42 UTC>`.
 */
export function slackTime(ms: number, format = '{date_short_pretty} {time}'): string {
  return `<!date^${Math.floor(ms / 1000)}^${format}|${utcText(ms)}>`;
}

export function utcText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "Ask <@U…> or <!subteam^S…>": mentions of configured user and group IDs. */
export function askWhom(ids: { users: readonly string[]; groups: readonly string[] }): string {
  const all = [...ids.users.map((u) => `<@${u}>`), ...ids.groups.map((g) => `<!subteam^${g}>`)];
  if (all.length === 0) return 'nobody is configured';
  if (all.length === 1) return all[0]!;
  return `${all.slice(0, -1).join(', ')} or ${all.at(-1)}`;
}

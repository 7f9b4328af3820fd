import type { LocalMessage } from '../../localslack/types.js';
import { type BlockHost, renderBlocks, type Suggestions } from './blocks.js';
import { type Child, h } from './dom.js';
import { emojify, type MrkdwnContext, mrkdwn } from './mrkdwn.js';
import { clock, dayLabel } from './zones.js';

/** One channel's (or thread's) message list, drawn as Slack does: avatar, name, time, then the blocks. */
export interface MessageListHost {
  viewer: string;
  timeZone: string;
  ctx: MrkdwnContext;
  botUserId: string;
  users: { id: string; name: string; realName?: string; isBot?: boolean }[];
  channels: { id: string; name: string; isIm?: boolean }[];
  /** Messages of the channel (all, including thread replies): for reply counts. */
  all: LocalMessage[];
  highlightTs?: string;
  inThread: boolean;
  onAction(m: LocalMessage, blockId: string, actionId: string, value: unknown, source: HTMLElement): void;
  /** A type-ahead select in the message asks the app for options. */
  suggest?(m: LocalMessage, blockId: string, actionId: string, query: string): Promise<Suggestions>;
  openThread(ts: string): void;
}

const COLORS = ['#e8912d', '#2bac76', '#1d9bd1', '#cd2553', '#7c3085', '#3c8d8b', '#b3590d'];

function colorFor(id: string): string {
  let n = 0;
  for (const c of id) n = (n * 31 + c.charCodeAt(0)) >>> 0;
  return COLORS[n % COLORS.length]!;
}

export function avatar(id: string, name: string, isBot: boolean, size = 'normal'): HTMLElement {
  const el = h(
    'span',
    { class: ['avatar', size, isBot && 'bot'] },
    isBot ? '⚙' : (name[0] ?? '?').toUpperCase(),
  );
  // Through the CSSOM: the page's Content-Security-Policy allows no inline style attributes.
  el.style.background = isBot ? '#4a154b' : colorFor(id);
  return el;
}

function author(m: LocalMessage, host: MessageListHost): { name: string; isBot: boolean; app: boolean } {
  if (m.user === 'USLACKBOT') return { name: 'Slackbot', isBot: true, app: false };
  if (m.user === host.botUserId || m.botId) return { name: 'tsai', isBot: true, app: true };
  const u = host.users.find((x) => x.id === m.user);
  return { name: u?.realName ?? u?.name ?? m.user, isBot: false, app: false };
}

const tsMs = (ts: string) => Math.floor(Number(ts) * 1000);

/** The reactions on a message, as Slack shows them under it: each emoji with how many added it. */
function reactionsOf(m: LocalMessage, host: MessageListHost): Child {
  if (!m.reactions?.length) return null;
  const names = (users: string[]) =>
    users.map((u) => (u === host.botUserId ? 'tsai' : (host.users.find((x) => x.id === u)?.name ?? u)));
  return h(
    'div',
    { class: 'reactions', 'data-role': 'reactions' },
    m.reactions.map((r) =>
      h(
        'span',
        {
          class: 'reaction',
          'data-reaction': r.name,
          title: `${names(r.users).join(', ')} reacted with :${r.name}:`,
        },
        h('span', { class: 'reaction-emoji' }, emojify(`:${r.name}:`)),
        h('span', { class: 'reaction-count' }, String(r.users.length)),
      ),
    ),
  );
}

function body(m: LocalMessage, host: MessageListHost): Child {
  // The head of an assistant pane thread, as the app's conversation lists it: the thread's title.
  if (m.assistantThread)
    return h('div', { class: 'text assistant-head' }, `✨ ${m.assistantThread.title ?? 'New chat'}`);
  if (Array.isArray(m.blocks) && m.blocks.length > 0) {
    const bh: BlockHost = {
      ctx: host.ctx,
      users: host.users,
      channels: host.channels,
      timeZone: host.timeZone,
      onAction: (blockId, actionId, value, source) => host.onAction(m, blockId, actionId, value, source),
      suggest: host.suggest
        ? (blockId, actionId, query) => host.suggest!(m, blockId, actionId, query)
        : undefined,
    };
    return renderBlocks(m.blocks, bh);
  }
  return h('div', { class: 'mrkdwn text' }, mrkdwn(m.text, host.ctx));
}

function messageNode(m: LocalMessage, compact: boolean, host: MessageListHost): HTMLElement {
  const a = author(m, host);
  const ephemeral = m.ephemeralTo !== undefined;
  // Slack counts no ephemeral message among a thread's replies.
  const replies = host.inThread
    ? []
    : host.all.filter((r) => r.threadTs === m.ts && r.ts !== m.ts && r.ephemeralTo === undefined);
  const when = clock(tsMs(m.ts), host.timeZone);
  const command = m.kind === 'command';
  return h(
    'div',
    {
      class: [
        'message',
        compact && 'compact',
        ephemeral && 'ephemeral',
        command && 'command',
        m.kind === 'system' && 'system',
        host.highlightTs === m.ts && 'highlight',
      ],
      'data-ts': m.ts,
      'data-author': a.name,
    },
    h(
      'div',
      { class: 'gutter' },
      compact ? h('span', { class: 'hover-time' }, when) : avatar(m.user, a.name, a.isBot),
    ),
    h(
      'div',
      { class: 'content' },
      ephemeral
        ? h(
            'div',
            { class: 'ephemeral-note' },
            h('span', { class: 'eye', 'aria-hidden': 'true' }, '👁'),
            ' Only visible to you',
          )
        : null,
      compact
        ? null
        : h(
            'div',
            { class: 'meta' },
            h('span', { class: 'author' }, a.name),
            a.app ? h('span', { class: 'app-badge' }, 'APP') : null,
            h('time', { class: 'time', title: `${m.ts} (${host.timeZone})` }, when),
          ),
      command ? h('div', { class: 'text slash' }, m.text) : body(m, host),
      m.edits > 0 ? h('span', { class: 'edited' }, '(edited)') : null,
      reactionsOf(m, host),
      replies.length > 0
        ? h(
            'button',
            { type: 'button', class: 'replies', onclick: () => host.openThread(m.ts) },
            `${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}`,
            h(
              'span',
              { class: 'replies-last' },
              `Last reply ${clock(tsMs(replies.at(-1)!.ts), host.timeZone)}`,
            ),
          )
        : null,
    ),
    host.inThread || ephemeral || command
      ? null
      : h(
          'div',
          { class: 'hover-actions' },
          h(
            'button',
            {
              type: 'button',
              class: 'icon-btn',
              title: 'Reply in thread',
              onclick: () => host.openThread(m.ts),
            },
            '💬',
          ),
        ),
  );
}

/** Day dividers and Slack's grouping of consecutive messages by one author within five minutes. */
export function messageList(messages: LocalMessage[], host: MessageListHost): Child[] {
  const out: Child[] = [];
  let prev: LocalMessage | undefined;
  let prevDay = '';
  for (const m of messages) {
    const day = dayLabel(tsMs(m.ts), host.timeZone);
    if (day !== prevDay && !host.inThread) {
      out.push(h('div', { class: 'day-divider' }, h('span', null, day)));
      prev = undefined;
    }
    prevDay = day;
    const compact =
      prev !== undefined &&
      prev.user === m.user &&
      prev.kind === m.kind &&
      (prev.ephemeralTo === undefined) === (m.ephemeralTo === undefined) &&
      tsMs(m.ts) - tsMs(prev.ts) < 5 * 60_000 &&
      !host.all.some((r) => r.threadTs === prev!.ts);
    out.push(messageNode(m, compact, host));
    prev = m;
  }
  return out;
}

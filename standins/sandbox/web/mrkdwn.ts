import { type Child, h } from './dom.js';
import { decodeEntities, slackDate } from './slack-date.js';

/**
 * Slack mrkdwn to DOM nodes. Tokens are found in the raw text first and entities (&amp; &lt; &gt;) are
 * decoded only inside plain text afterwards, so escaped text such as `&lt;!channel&gt;` is shown literally
 * and never becomes a mention or a link. Nothing is ever assigned to innerHTML.
 */
export interface MrkdwnContext {
  userName(id: string): string | undefined;
  channelName(id: string): string | undefined;
  groupHandle(id: string): string | undefined;
  /** The viewer's zone: `<!date^…>` tokens are shown in it, as Slack does. */
  timeZone(): string;
  /** In-page target for a permalink to a message (`/archives/C…/p…`), if the link points at one. */
  permalink?(channel: string, ts: string): (() => void) | undefined;
}

const EMOJI: Record<string, string> = {
  warning: '⚠️',
  white_check_mark: '✅',
  heavy_check_mark: '✔️',
  x: '❌',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  grey_question: '❔',
  question: '❓',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  hourglass_not_done: '⏳',
  information_source: 'ℹ️',
  rocket: '🚀',
  stopwatch: '⏱️',
  clock1: '🕐',
  lock: '🔒',
  key: '🔑',
  bust_in_silhouette: '👤',
  busts_in_silhouette: '👥',
  tada: '🎉',
  eyes: '👀',
  wave: '👋',
  bell: '🔔',
  no_bell: '🔕',
  red_circle: '🔴',
  large_green_circle: '🟢',
  green_circle: '🟢',
  large_blue_circle: '🔵',
  white_circle: '⚪',
  black_circle: '⚫',
  arrow_right: '➡️',
  leftwards_arrow_with_hook: '↩️',
  repeat: '🔁',
  arrows_counterclockwise: '🔄',
  chart_with_upwards_trend: '📈',
  bar_chart: '📊',
  gear: '⚙️',
  memo: '📝',
  pushpin: '📌',
  link: '🔗',
  mag: '🔍',
  bulb: '💡',
  stop_sign: '🛑',
  octagonal_sign: '🛑',
  heavy_plus_sign: '➕',
  heavy_minus_sign: '➖',
  wastebasket: '🗑️',
  calendar: '📆',
  date: '📅',
  spiral_calendar_pad: '🗓️',
  earth_africa: '🌍',
  globe_with_meridians: '🌐',
  thumbsup: '👍',
  '+1': '👍',
  thumbsdown: '👎',
  raised_hand: '✋',
  robot_face: '🤖',
  factory: '🏭',
  zap: '⚡',
  sparkles: '✨',
  clipboard: '📋',
  package: '📦',
  label: '🏷️',
  inbox_tray: '📥',
  outbox_tray: '📤',
};

/** Emoji shortcodes (`:warning:`) to characters; unknown ones stay as typed. */
export function emojify(s: string): string {
  return s.replace(/:([a-z0-9_+-]+):/g, (all, name: string) => EMOJI[name] ?? all);
}

const PATTERNS: { kind: 'code' | 'angle' | 'bold' | 'italic' | 'strike'; re: RegExp }[] = [
  { kind: 'code', re: /`([^`\n]+)`/g },
  { kind: 'angle', re: /<([^<>\n]+)>/g },
  { kind: 'bold', re: /(?<![\w*])\*(?=\S)([^*\n]*?[^\s*]|[^\s*])\*(?![\w*])/g },
  { kind: 'italic', re: /(?<![\w_])_(?=\S)([^_\n]*?[^\s_]|[^\s_])_(?![\w_])/g },
  { kind: 'strike', re: /(?<![\w~])~(?=\S)([^~\n]*?[^\s~]|[^\s~])~(?![\w~])/g },
];

const text = (s: string): string => emojify(decodeEntities(s));

function safeHref(url: string): string | undefined {
  try {
    const u = new URL(url);
    return ['http:', 'https:', 'mailto:'].includes(u.protocol) ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function angle(token: string, ctx: MrkdwnContext): Child {
  const [target = '', label] = splitOnce(token, '|');
  if (target.startsWith('@')) {
    const id = target.slice(1);
    return h('span', { class: 'mention' }, `@${label ?? ctx.userName(id) ?? id}`);
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    return h('span', { class: 'mention channel' }, `#${label ?? ctx.channelName(id) ?? id}`);
  }
  if (target.startsWith('!')) {
    const special = target.slice(1);
    if (special.startsWith('subteam^')) {
      const id = special.slice('subteam^'.length);
      return h('span', { class: 'mention' }, label ?? `@${ctx.groupHandle(id) ?? id}`);
    }
    if (special.startsWith('date^'))
      return h('span', { class: 'date' }, slackDate(special, label, ctx.timeZone()));
    return h('span', { class: 'mention broadcast' }, `@${label ?? special}`);
  }
  const raw = decodeEntities(target);
  const perm = /\/archives\/([A-Z0-9]+)\/p(\d+)$/.exec(raw);
  const jump = perm ? ctx.permalink?.(perm[1]!, perm[2]!) : undefined;
  if (jump) {
    return h(
      'a',
      {
        href: '#',
        class: 'link',
        title: raw,
        onclick: (e: Event) => {
          e.preventDefault();
          jump();
        },
      },
      text(label ?? raw),
    );
  }
  const href = safeHref(raw);
  if (!href) return text(`<${token}>`);
  return h(
    'a',
    { href, class: 'link', title: href, target: '_blank', rel: 'noopener noreferrer' },
    text(label ?? raw),
  );
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

function inline(s: string, ctx: MrkdwnContext, depth = 0): Child[] {
  const out: Child[] = [];
  let pos = 0;
  while (pos < s.length) {
    let best: { kind: string; index: number; length: number; inner: string } | undefined;
    for (const p of PATTERNS) {
      if (depth > 3 && p.kind !== 'code' && p.kind !== 'angle') continue;
      p.re.lastIndex = pos;
      const m = p.re.exec(s);
      if (m && (!best || m.index < best.index))
        best = { kind: p.kind, index: m.index, length: m[0].length, inner: m[1] ?? '' };
    }
    if (!best) break;
    if (best.index > pos) out.push(text(s.slice(pos, best.index)));
    const inner = best.inner;
    if (best.kind === 'code') out.push(h('code', null, decodeEntities(inner)));
    else if (best.kind === 'angle') out.push(angle(inner, ctx));
    else if (best.kind === 'bold') out.push(h('b', null, inline(inner, ctx, depth + 1)));
    else if (best.kind === 'italic') out.push(h('i', null, inline(inner, ctx, depth + 1)));
    else out.push(h('s', null, inline(inner, ctx, depth + 1)));
    pos = best.index + best.length;
  }
  if (pos < s.length) out.push(text(s.slice(pos)));
  return out;
}

/** Lines starting with a literal `>` (as apps send it) are a quote; escaped `&gt;` stays text. */
function lines(s: string, ctx: MrkdwnContext): Child[] {
  const out: Child[] = [];
  const all = s.split('\n');
  for (let i = 0; i < all.length; i++) {
    const line = all[i]!;
    if (line.startsWith('>')) {
      const quoted: string[] = [];
      while (i < all.length && all[i]!.startsWith('>')) quoted.push(all[i++]!.replace(/^> ?/, ''));
      i--;
      out.push(h('blockquote', null, inline(quoted.join('\n'), ctx)));
      continue;
    }
    out.push(inline(line, ctx));
    if (i < all.length - 1) out.push('\n');
  }
  return out;
}

export function mrkdwn(s: string, ctx: MrkdwnContext): Child[] {
  const out: Child[] = [];
  const fence = /```([\s\S]*?)```/g;
  let pos = 0;
  for (let m = fence.exec(s); m; m = fence.exec(s)) {
    if (m.index > pos) out.push(lines(s.slice(pos, m.index), ctx));
    out.push(h('pre', null, decodeEntities(m[1]!.replace(/^\n/, ''))));
    pos = m.index + m[0].length;
  }
  if (pos < s.length) out.push(lines(s.slice(pos), ctx));
  return out;
}

/** A Block Kit text object: mrkdwn is formatted, plain_text is shown as sent (emoji shortcodes aside). */
export function textObject(t: unknown, ctx: MrkdwnContext): Child[] {
  if (!t || typeof t !== 'object') return [];
  const o = t as { type?: string; text?: unknown; emoji?: boolean; verbatim?: boolean };
  const s = typeof o.text === 'string' ? o.text : '';
  if (o.type === 'mrkdwn') return mrkdwn(s, ctx);
  return [o.emoji === false ? s : emojify(s)];
}

/** The plain string of a text object (labels, option texts, titles). */
export function plainText(t: unknown): string {
  if (!t || typeof t !== 'object') return '';
  const o = t as { type?: string; text?: unknown; emoji?: boolean };
  const s = typeof o.text === 'string' ? o.text : '';
  return o.type === 'mrkdwn' ? decodeEntities(s) : o.emoji === false ? s : emojify(s);
}

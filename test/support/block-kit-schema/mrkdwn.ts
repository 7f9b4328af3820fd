/**
 * What Slack would read as a control sequence although a person was meant to see it. Slack parses `<`,
 * `>` and `&` in mrkdwn text (a message's `text`, every `mrkdwn` text object), inside code spans too; text
 * a person should see carries `&lt;`, `&gt;` and `&amp;` instead (docs.slack.dev/messaging/
 * formatting-message-text, "Escaping text"). The only sequences the bot means are those it builds from
 * IDs Slack gave it: a person `<@U…>`, a channel `<#C…>` (a direct message `<#D…>` too), a user group `<!subteam^S…>`, a date
 * `<!date^…|…>` and a link `<https://…|…>`; `<!here>`, `<!channel>` and `<!everyone>` are never meant.
 */

const MEANT: readonly RegExp[] = [
  /<@[UW][A-Z0-9]+>/g,
  /<#[CGD][A-Z0-9]+(?:\|([^<>]*))?>/g,
  /<!subteam\^S[A-Z0-9]+(?:\|([^<>]*))?>/g,
  /<!date\^\d+\^[^|<>]+\|([^<>]*)>/g,
  /<https?:\/\/[^|<>\s]+(?:\|([^<>]*))?>/g,
];

/** The problems of one mrkdwn text: each unescaped `<`, `>` or `&`, with what surrounds it. */
export function mrkdwnTextProblems(text: string, at: string): string[] {
  // A meant sequence stands for its label, which is text a person sees like any other.
  let rest = text;
  for (const re of MEANT) rest = rest.replace(re, (_m, label?: string) => ` ${label ?? ''} `);
  const out: string[] = [];
  for (const m of rest.matchAll(/[<>]|&(?!amp;|lt;|gt;)/g)) {
    const around = rest.slice(Math.max(0, m.index - 30), m.index + 30).replace(/\s+/g, ' ');
    out.push(`${at}: an unescaped "${m[0]}" that Slack reads as markup: …${around}…`);
  }
  return out;
}

/**
 * Every mrkdwn text in a payload: a message's top-level `text` (`top`) and every text object of type
 * `mrkdwn` within it (section texts and fields, context elements).
 */
export function mrkdwnProblems(payload: unknown, at: string, top = false): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) walk(x, `${path}/${i}`);
      return;
    }
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (o.type === 'mrkdwn' && typeof o.text === 'string') out.push(...mrkdwnTextProblems(o.text, path));
    for (const [k, x] of Object.entries(o)) walk(x, `${path}/${k}`);
  };
  const body = payload as Record<string, unknown> | undefined;
  if (top && typeof body?.text === 'string' && body.mrkdwn !== false)
    out.push(...mrkdwnTextProblems(body.text, `${at}text`));
  walk(top ? body?.blocks : payload, top ? `${at}blocks` : at);
  return out;
}

const MESSAGE_METHODS = new Set([
  'chat.postMessage',
  'chat.postEphemeral',
  'chat.update',
  'chat.scheduleMessage',
]);
const VIEW_METHODS = new Set(['views.open', 'views.push', 'views.update', 'views.publish']);

/** What a Slack (the local stand-in) was sent: Web API calls and response_url posts. */
export interface Sent {
  calls: readonly { method: string; args: Record<string, unknown> }[];
  responses: readonly { body: unknown }[];
}

/** Every unescaped `<`, `>` or `&` in the mrkdwn of every message and view the bot sent a Slack. */
export function sentMarkupProblems(sent: Sent): string[] {
  const out: string[] = [];
  for (const [i, c] of sent.calls.entries()) {
    if (MESSAGE_METHODS.has(c.method)) out.push(...mrkdwnProblems(c.args, `${c.method} #${i} `, true));
    else if (VIEW_METHODS.has(c.method)) out.push(...mrkdwnProblems(c.args.view, `${c.method} #${i} view`));
  }
  for (const [i, r] of sent.responses.entries())
    out.push(...mrkdwnProblems(r.body, `response_url #${i} `, true));
  return out;
}

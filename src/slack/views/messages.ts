import { COMMANDS } from '../../core/grammar/commands.js';
import { correctedCommand } from '../../core/grammar/corrected.js';
import { decodeSlackEntities } from '../../core/grammar/tokenize.js';
import type { OpFailure, OpSuccess } from '../../core/outcome.js';
import { maskSecrets, secretSafe } from '../../core/secret-text.js';
import { connectActions } from './connect.js';
import {
  askWhom,
  code,
  context,
  escapeMrkdwn,
  fieldsSection,
  type KnownBlock,
  LIMITS,
  limitBlocks,
  mention,
  section,
  shorten,
  slackTime,
  truncate,
} from './mrkdwn.js';

/** A Slack message body: fallback `text` (notifications, screen readers) and blocks. */
export interface MessageBody {
  text: string;
  blocks: KnownBlock[];
}

/**
 * The same message, shorter and plainer, for when Slack refused it (`invalid_blocks`, `msg_too_long`): the
 * text of its sections and context lines (buttons left out), in one section within Slack's limits, so
 * the outcome still reaches the person.
 */
export function plainMessage(body: MessageBody): MessageBody {
  const texts: string[] = [];
  const add = (t: unknown) => {
    const s = (t as { text?: unknown } | undefined)?.text;
    if (typeof s === 'string' && s.trim()) texts.push(s);
  };
  for (const b of body.blocks as {
    type: string;
    text?: unknown;
    fields?: unknown[];
    elements?: unknown[];
  }[]) {
    if (b.type === 'section' || b.type === 'header') {
      add(b.text);
      for (const f of b.fields ?? []) add(f);
    } else if (b.type === 'context') for (const el of b.elements ?? []) add(el);
  }
  const text = truncate(texts.length ? texts.join('\n') : body.text || 'tsai', LIMITS.text);
  return { text, blocks: [section(text)] };
}

/** Who ran which command: shown under every reply so nothing typed is lost. */
export interface Invocation {
  userId: string;
  /** The command as the user typed it, e.g. `/tsai learn workspace=…`. */
  commandText: string;
}

/**
 * The invocation of a slash command. Slack sends `&`, `<`, `>` in the text as entities; they are decoded
 * here so the echo (escaped again when rendered) shows exactly what the user typed.
 */
export function invocationOf(command: { user_id: string; command: string; text: string }): Invocation {
  return {
    userId: command.user_id,
    commandText: secretSafe(decodeSlackEntities(`${command.command} ${command.text}`.trim())),
  };
}

const MAX_VALUE = 500;

function fact(label: string, value: string, as?: { code?: boolean; time?: boolean }): string {
  if (as?.time && /^\d+$/.test(value)) return `*${escapeMrkdwn(label)}*\n${slackTime(Number(value))}`;
  const v = shorten(value, MAX_VALUE);
  return `*${escapeMrkdwn(label)}*\n${as?.code ? code(v) : escapeMrkdwn(v)}`;
}

function fallback(text: string): string {
  return truncate(text, LIMITS.text);
}

/** In-channel result of a mutating command, or an ephemeral lookup result. */
export function resultMessage(outcome: OpSuccess, inv: Invocation): MessageBody {
  const who = mention(inv.userId);
  const headline =
    outcome.visibility === 'channel' ? `${who} ${escapeMrkdwn(outcome.title)}` : escapeMrkdwn(outcome.title);
  const fields = outcome.facts.map((f) => fact(f.label, f.value, f));
  if (outcome.flow) {
    fields.unshift(fact('Flow ID', outcome.flow.id, { code: true }), fact('Status', outcome.flow.status));
  }
  const blocks: KnownBlock[] = [section(headline), ...fieldsSection(fields)];
  for (const note of outcome.notes ?? []) blocks.push(section(escapeMrkdwn(note)));
  blocks.push(
    context(`${outcome.visibility === 'channel' ? `Run by ${who}: ` : ''}${code(inv.commandText)}`),
  );
  const flowText = outcome.flow ? ` (flow ${outcome.flow.id}, ${outcome.flow.status})` : '';
  return {
    text: fallback(
      `${outcome.visibility === 'channel' ? `${who} ` : ''}${escapeMrkdwn(outcome.title)}${escapeMrkdwn(flowText)}`,
    ),
    blocks: limitBlocks(blocks),
  };
}

/**
 * Ephemeral error: what was wrong, the usage, the command quoted back, and last a whole command that works:
 * the person's own with the refused value replaced when the refusal offers one `key=value`, else the
 * command's example.
 */
export function errorMessage(failure: OpFailure, inv: Invocation): MessageBody {
  const icon = failure.outcomeUnknown ? ':grey_question:' : ':warning:';
  // A refusal may quote what was typed; a token-like value in it is never repeated.
  const message = maskSecrets(failure.message);
  const blocks: KnownBlock[] = [section(`${icon} ${escapeMrkdwn(message)}`)];
  const detail = refusalDetail(failure);
  if (detail) blocks.push(section(detail));
  if (failure.usage) blocks.push(section(`*Usage:* ${code(failure.usage)}`));
  if (failure.connect) blocks.push(connectActions(failure.connect, inv.commandText));
  blocks.push(
    context(
      failure.connect
        ? `Once connected, run it again: ${code(inv.commandText)}`
        : `You typed: ${code(inv.commandText)}`,
    ),
  );
  const example = failure.example;
  const readings = failure.readings?.map((r) => correctedCommand(inv.commandText, r) ?? r) ?? [];
  if (readings.length > 0) {
    // Each reading as a whole command that runs it when typed: the person says which one they meant.
    blocks.push(section(`*Which did you mean?*\n${readings.map((r) => `• ${code(r)}`).join('\n')}`));
  } else if (example) {
    const corrected = example.startsWith('/') ? undefined : correctedCommand(inv.commandText, example);
    blocks.push(section(corrected ? `*Corrected:* ${code(corrected)}` : `*Example:* ${code(example)}`));
  }
  return {
    text: fallback(`${escapeMrkdwn(message)}${detail ? ` ${detail}` : ''}`),
    blocks: limitBlocks(blocks),
  };
}

/** Whom a refused person may ask, or where the bot acts: mentions only the bot builds, from configured IDs. */
function refusalDetail(failure: OpFailure): string | undefined {
  const r = failure.refusal;
  if (!r) return undefined;
  if (r.reason === 'channel-not-allowed')
    return `Allowed channels: ${r.allowedChannels.map((c) => `<#${c}>`).join(', ')}.`;
  const whom = askWhom({ users: r.askUsers, groups: r.askGroups });
  if (r.reason === 'not-owner')
    return `Its owner: ${r.owner ? `<@${r.owner}>` : 'unknown'}. Approvers: ${whom}.`;
  return `${r.reason === 'not-approver' ? 'Approvers' : 'Operators'}: ${whom}.`;
}

/** `/tsai help` (all commands) or `/tsai help <command>` (that command with every example). */
export function helpMessage(topic: string | undefined): MessageBody {
  const specs = topic ? COMMANDS.filter((c) => c.id === topic || c.words[0] === topic) : COMMANDS;
  const blocks: KnownBlock[] = [];
  if (!topic) {
    blocks.push(
      section(
        '*tsai: commands*\nArguments are positional or `key=value`; quote values with spaces (`name="Pump 3"`). Time ranges read like `yesterday 9am to 5pm`, `last 3 days` or `3 days ago 9am to 5pm`, in your Slack time zone; in a channel that declared its shifts (`/tsai use shifts=06:00,14:00,22:00`), `last shift` too.',
      ),
    );
  }
  for (const spec of specs) {
    const lines = [code(spec.usage), escapeMrkdwn(spec.summary)];
    if (topic) {
      lines.push(...(spec.arguments ?? []).map((a) => `• ${code(a.usage)} ${escapeMrkdwn(a.help)}`));
      lines.push(...spec.examples.map((e) => `Example: ${code(e)}`));
    }
    blocks.push(section(lines.join('\n')));
  }
  if (!topic)
    blocks.push(
      context(
        `${code('/tsai help <command>')} shows examples, e.g. \`/tsai help learn\`. In a thread, mention the bot: \`@tsai flows\`; in its Messages tab, type the command alone.`,
      ),
    );
  return {
    text: topic ? `Help for /tsai ${escapeMrkdwn(topic)}` : 'tsai commands',
    blocks: limitBlocks(blocks),
  };
}

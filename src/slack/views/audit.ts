import type { AuditEntry } from '../../core/records.js';
import type { MessageBody } from './messages.js';
import {
  code,
  escapeMrkdwn,
  type KnownBlock,
  limitBlocks,
  mention,
  plural,
  section,
  slackTime,
  truncate,
} from './mrkdwn.js';

/** A name or reason is shown up to this many characters, so one entry stays one or two lines. */
const MAX_TEXT = 80;

function who(userId: string): string {
  return userId === 'system' ? 'The bot' : mention(userId);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const LIVE_ACTION: Record<string, string> = { start: 'start', stop: 'stop' };

/** What the person (or the bot) did, as the predicate of a sentence. */
function deed(e: AuditEntry): string {
  const p = e.params ?? {};
  const [area, ...rest] = e.operation.split('.');
  const what = rest.join('.');
  if (area === 'flow') return `started ${article(what)} ${escapeMrkdwn(what)} flow`;
  switch (e.operation) {
    case 'workspace.create':
      return 'created a workspace';
    case 'model.move':
      return 'moved a model';
    case 'approval.request':
      return `asked to ${LIVE_ACTION[String(p.action)] ?? 'change'} a live model`;
    case 'approval.approve':
      return 'approved a request';
    case 'approval.reject':
      return 'rejected a request';
    case 'approval.expire':
      return 'let a request expire unanswered';
    case 'policy.refused':
      return `was refused ${str(p.operation) ? code(str(p.operation)!) : 'an operation'}`;
    case 'channel.defaults.set':
      return "set this channel's defaults";
    case 'channel.defaults.clear':
      return "cleared this channel's defaults";
    default:
      return `ran ${code(e.operation)}`;
  }
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/** How it ended, when not plainly done: refused, failed, or unknown, with the reason. */
function ending(e: AuditEntry): string {
  const why = e.error ? `: ${escapeMrkdwn(truncate(e.error.replace(/\.\s*$/, ''), 200))}` : '';
  switch (e.outcome) {
    case 'ok':
      return '';
    case 'refused':
      return ` It was refused${why}.`;
    case 'error':
      return ` It failed${why}.`;
    default:
      return ` Its outcome is unknown${why}.`;
  }
}

/** The parameters a person recognises (names, resource IDs, how much data), never the raw request. */
function particulars(p: Record<string, unknown>): string[] {
  const out: string[] = [];
  const name = str(p.name);
  if (name) out.push(`name "${escapeMrkdwn(truncate(name, MAX_TEXT))}"`);
  for (const [label, keys] of [
    ['workspace', ['workspaceId', 'workspace']],
    ['model', ['modelId', 'model']],
    ['assessment', ['assessmentId', 'assessment']],
    ['datastream', ['datastreamId', 'datastream']],
  ] as const) {
    const id = keys.map((k) => str(p[k])).find(Boolean);
    if (id) out.push(`${label} ${code(id)}`);
  }
  const data = (p.data ?? {}) as { signals?: unknown; ranges?: unknown; dataspecId?: unknown };
  if (Array.isArray(data.signals)) out.push(plural(data.signals.length, 'signal'));
  if (Array.isArray(data.ranges)) out.push(plural(data.ranges.length, 'time range'));
  if (str(data.dataspecId)) out.push(`dataspec ${code(str(data.dataspecId)!)}`);
  const reason = str(p.reason);
  if (reason) out.push(`reason "${escapeMrkdwn(truncate(reason, MAX_TEXT))}"`);
  return out;
}

/** Whose service identity a service call used, as the runner recorded it (never the token). */
function identity(p: Record<string, unknown>): string {
  const actedAs = str(p.actedAs);
  return actedAs
    ? ` (as ${escapeMrkdwn(actedAs === 'own token' ? 'themselves, with their own token' : actedAs)})`
    : '';
}

/**
 * One audit entry as a sentence or two: when, who did what (and with whose service identity), how it
 * ended, and what it concerned.
 */
export function auditLine(e: AuditEntry): string {
  const p = e.params ?? {};
  let line = `${slackTime(e.at)}: ${who(e.userId)}${identity(p)} ${deed(e)}`;
  if (e.flowId) line += ` ${code(e.flowId)}${e.flowStatus ? ` (${escapeMrkdwn(e.flowStatus)})` : ''}`;
  line += `.${ending(e)}`;
  const about = particulars(p);
  const requester = str(p.requestedBy);
  if (requester) about.push(`requested by ${mention(requester)}`);
  if (e.requestId) about.push(`request ${code(e.requestId)}`);
  if (about.length) line += ` ${capitalise(about.join(', '))}.`;
  return line;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `/tsai audit [n]`: the latest decisions and flow creations, newest first. */
export function auditMessage(entries: AuditEntry[]): MessageBody {
  if (entries.length === 0) {
    return {
      text: 'The audit log has no decisions or flow creations yet.',
      blocks: [section('The audit log has no decisions or flow creations yet.')],
    };
  }
  const heading =
    entries.length === 1 ? 'the latest entry' : `the latest ${entries.length} entries, newest first`;
  const blocks: KnownBlock[] = [section(`*Audit log of decisions and flow creations: ${heading}*`)];
  // Several entries per section keep long logs within the 50-block limit.
  for (let i = 0; i < entries.length; i += 5) {
    blocks.push(
      section(
        entries
          .slice(i, i + 5)
          .map(auditLine)
          .join('\n'),
      ),
    );
  }
  return { text: `Audit log: ${plural(entries.length, 'entry', 'entries')}`, blocks: limitBlocks(blocks) };
}

import type { ApprovalRequest } from '../../core/records.js';
import { errText } from '../../log.js';
import type { Bot } from '../bot.js';
import type { Change } from '../changes.js';
import type { Came } from '../command/index.js';
import { keepFor, keptValue } from '../kept.js';
import { slackFailure } from '../slack-errors.js';

/**
 * What the bot's reactions on a message that asked it something say, wherever the message was written (a
 * mention, the Messages tab, the assistant pane): one at a time, each replacing the one before, so the
 * message always shows where its request stands (docs/mentions.md). Each change is one reaction added and
 * at most one taken off: Slack allows few removals a minute.
 */
export const REACTIONS = {
  /** Read: the bot took the message and is on it. */
  taken: 'eyes',
  /** Under way: a flow it started is followed to its end, or a request waits for its approvers. */
  waiting: 'hourglass_flowing_sand',
  /** Done: answered, or the change made, or its flow ended COMPLETED. */
  done: 'white_check_mark',
  /** Failed: the service or the bot failed it, or its flow ended without completing. */
  failed: 'x',
  /** Refused, nothing done: the wording was not understood, the gate refused it, or its request was turned down. */
  refused: 'no_entry_sign',
} as const;

export type Mark = keyof typeof REACTIONS;

/** The message a person asked in, and the team they asked from (whose records its request is kept with). */
export interface AskedMessage {
  teamId?: string | undefined;
  channelId: string;
  ts: string;
}

/** Slack's answers that say the reaction is already as wanted. */
const ALREADY = new Set(['already_reacted', 'no_reaction']);

/**
 * Puts `mark` on the message and takes off the one it replaces (`replacing`: the bot's mark before it).
 * A reaction is a courtesy: Slack refusing one (an installation made before the bot asked for
 * `reactions:write`, a deleted message, a rate limit) is logged and the answer goes on; never throws.
 */
export async function markMessage(bot: Bot, m: AskedMessage, mark: Mark, replacing?: Mark): Promise<void> {
  const call = async (method: 'add' | 'remove', name: string) => {
    try {
      const args = { channel: m.channelId, timestamp: m.ts, name };
      await (method === 'add' ? bot.slack.reactions.add(args) : bot.slack.reactions.remove(args));
    } catch (e) {
      if (ALREADY.has(slackFailure(e).error)) return;
      bot.logger.info(
        { part: 'reactions', channel: m.channelId, ts: m.ts, name, err: errText(e) },
        `could not ${method} a reaction`,
      );
    }
  };
  await call('add', REACTIONS[mark]);
  if (replacing && replacing !== mark) await call('remove', REACTIONS[replacing]);
}

/** How long a message that started a flow (or filed a request) waits to be marked by its end. */
const WAITS_FOR_MS = 14 * 24 * 60 * 60_000;

const flowKey = (teamId: string | null | undefined, flowId: string) =>
  `asked-message:${teamId ?? '-'}:flow:${flowId}`;
const requestKey = (teamId: string | null | undefined, requestId: string) =>
  `asked-message:${teamId ?? '-'}:request:${requestId}`;

/** The mark of a flow's end, by the status it ended in. */
const markOfFlow = (status: string): Mark => (status.toUpperCase() === 'COMPLETED' ? 'done' : 'failed');

/**
 * The mark of a request's decision; undefined while it waits, or while the flow it made runs (`follows`:
 * the bot follows flows, whose end marks the message).
 */
function markOfRequest(r: Pick<ApprovalRequest, 'status' | 'flowId'>, follows: boolean): Mark | undefined {
  if (r.status === 'rejected' || r.status === 'expired' || r.status === 'refused') return 'refused';
  if (r.status === 'failed' || r.status === 'unknown') return 'failed';
  if (r.status === 'executed' && (!r.flowId || !follows)) return 'done';
  return undefined;
}

/**
 * What came of the message's request, shown on it: done, failed or refused at once; a flow started or a
 * request filed is marked under way and remembered, so that its end marks the message again
 * (`markEnded`). A flow that ended before it was remembered is marked at once.
 */
export async function markCame(bot: Bot, m: AskedMessage, came: Came): Promise<void> {
  if (came.kind === 'misread' || came.kind === 'refused') return markMessage(bot, m, 'refused', 'taken');
  if (came.kind === 'failed') return markMessage(bot, m, 'failed', 'taken');
  if (came.kind === 'answered') return markMessage(bot, m, 'done', 'taken');
  await markMessage(bot, m, 'waiting', 'taken');
  try {
    if (came.kind === 'started') {
      await keepFor(bot, flowKey(m.teamId, came.flowId), m, WAITS_FOR_MS);
      const f = await bot.store.getTrackedFlow({ teamId: m.teamId, flowId: came.flowId });
      if (f?.finishedAt) await markMessage(bot, m, markOfFlow(f.status), 'waiting');
    } else if (came.kind === 'filed') {
      await keepFor(bot, requestKey(m.teamId, came.requestId), m, WAITS_FOR_MS);
      const r = await bot.approvals.get(came.requestId);
      const mark = r && markOfRequest(r, bot.tracker !== undefined);
      if (mark) await markMessage(bot, m, mark, 'waiting');
    }
  } catch (e) {
    bot.logger.info(
      { part: 'reactions', err: errText(e) },
      'could not remember a message waiting for its end',
    );
  }
}

/**
 * A change announced once (changes.ts): a flow that ended, or a request decided, marks the message that
 * asked for it. A live start's flow ends the message of the request that made it. Never throws, never
 * waits.
 */
export function markEnded(bot: Bot, change: Change): void {
  if (!change.flowEnded && !change.requestId) return;
  void (async () => {
    if (change.flowEnded) {
      // The end is told before the store shows it: its status comes with the change.
      const status = change.flowStatus;
      const f = await bot.store.getTrackedFlow({ teamId: change.teamId, flowId: change.flowEnded });
      if (!f || !status) return;
      const m =
        (await keptValue<AskedMessage>(bot, flowKey(change.teamId, f.flowId))) ??
        (f.approvalId
          ? await keptValue<AskedMessage>(bot, requestKey(change.teamId, f.approvalId))
          : undefined);
      if (m) await markMessage(bot, m, markOfFlow(status), 'waiting');
      return;
    }
    const m = await keptValue<AskedMessage>(bot, requestKey(change.teamId, change.requestId!));
    if (!m) return;
    const r = await bot.approvals.get(change.requestId!);
    const mark = r && markOfRequest(r, bot.tracker !== undefined);
    if (mark) await markMessage(bot, m, mark, 'waiting');
  })().catch((e: unknown) =>
    bot.logger.info({ part: 'reactions', err: errText(e) }, 'could not mark a message at its end'),
  );
}

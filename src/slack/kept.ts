import type { Bot } from './bot.js';

/**
 * Small values the Slack surface keeps for a while, shared by every replica and forgotten after: what a
 * message asked that still waits for its flow's end, an assistant pane's thread. Kept as the store keeps
 * a form submission's key (one atomic upsert, pruned once expired), so nothing of it outlives its use.
 */
export async function keepFor(bot: Bot, key: string, value: unknown, ms: number): Promise<void> {
  const now = bot.now().getTime();
  // Claimed anew once expired; a value kept already is written over, keeping its expiry.
  await bot.store.claimSubmission(key, now, now + ms);
  await bot.store.recordSubmissionOutcome(key, value);
}

/** What is kept under `key`; undefined when nothing is (or it was pruned). */
export async function keptValue<T>(bot: Bot, key: string): Promise<T | undefined> {
  return (await bot.store.submissionOutcome<T>(key)) ?? undefined;
}

/** Claims `key` once for `ms`: true the first time, false while an earlier claim stands (any replica). */
export async function claimOnce(bot: Bot, key: string, ms: number): Promise<boolean> {
  const now = bot.now().getTime();
  return bot.store.claimSubmission(key, now, now + ms);
}

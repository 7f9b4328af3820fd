import type { AnyEntry } from './entry.js';
import { registerOperations } from './index.js';

/**
 * Registers the operations of modules the bot does not ship (a test's own), named by URL: each module's
 * `operations` export lists its entries. Each thread composing a bot calls it with the same URLs first,
 * so a follow-up on the worker thread knows them as the acking thread does.
 */
export async function addOperationModules(urls: readonly string[]): Promise<void> {
  for (const url of urls) {
    const { operations } = (await import(url)) as { operations?: unknown };
    if (!Array.isArray(operations)) throw new Error(`${url} has no \`operations\` export listing entries`);
    // A module's word for what it exports: its entries are checked as they are registered.
    registerOperations(operations as AnyEntry[]);
  }
}

import type { ParsedCommand } from '../grammar/types.js';
import type { OpFailure } from '../outcome.js';
import type { Operation } from './operation.js';
import { entryOfParsed } from './registry/index.js';
import type { RequestContext } from './requests.js';

/** A command made exact: the operation it resolves to, or why not. */
export type ResolveOutcome = { ok: true; operation: Operation } | OpFailure;

export type Resolvable = Exclude<ParsedCommand, { kind: 'help' }>;

type BotCommand = Extract<Resolvable, { kind: 'use' | 'approvals' | 'flows' | 'audit' }>;

/**
 * Checks what needs the user's zone and the clock (time ranges, all in the past) and fills
 * default names. Nothing here calls the service, so bad input never reaches it.
 */
export function resolveCommand(cmd: Resolvable, ctx: RequestContext): ResolveOutcome {
  const entry = entryOfParsed(cmd.kind);
  if (entry) return entry.resolve(cmd, ctx);
  return { ok: true, operation: botOperation(cmd as BotCommand) };
}

/** The bot's own commands: about its store, nothing to resolve. */
function botOperation(cmd: BotCommand): Operation {
  switch (cmd.kind) {
    case 'use':
      if (cmd.action === 'set') return { kind: 'defaults-set', values: cmd.values };
      return { kind: cmd.action === 'clear' ? 'defaults-clear' : 'defaults-show' };
    case 'approvals':
      return { kind: 'approvals-list' };
    case 'flows':
      return { kind: 'flows-list', ...(cmd.limit !== undefined ? { limit: cmd.limit } : {}) };
    case 'audit':
      return { kind: 'audit-list', ...(cmd.limit !== undefined ? { limit: cmd.limit } : {}) };
  }
}

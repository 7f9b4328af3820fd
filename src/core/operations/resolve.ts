import { parseTimeRange, parseTimeRanges } from '../../time/index.js';
import type { DataArg, ParsedCommand } from '../grammar/types.js';
import { defaultName } from '../names.js';
import type { OpFailure } from '../outcome.js';
import type { Operation } from './operation.js';
import type { RequestContext, ResolvedData } from './requests.js';

export type ResolveOutcome = { ok: true; operation: Operation } | OpFailure;

export type Resolvable = Exclude<ParsedCommand, { kind: 'help' }>;

function rangeFailure(error: string, examples: string[], key: string): OpFailure {
  const example = examples[0];
  return {
    ok: false,
    message: `\`${key}=\` could not be read: ${error}`,
    ...(example ? { example: `${key}="${example}"` } : {}),
  };
}

/** How every command that reads data parses its ranges: in the user's zone and locale, ending by now. */
function rangeContext(ctx: RequestContext) {
  return {
    now: ctx.now,
    timeZone: ctx.timeZone,
    requirePast: true,
    ...(ctx.locale ? { locale: ctx.locale } : {}),
  };
}

function resolveData(data: DataArg, ctx: RequestContext, name: string): ResolvedData | OpFailure {
  if (data.kind === 'dataspec') return data;
  const parsed = parseTimeRanges(data.rangeText, rangeContext(ctx));
  if (!parsed.ok) return rangeFailure(parsed.error, parsed.examples, 'range');
  return { kind: 'inline', signals: data.signals, ranges: parsed.ranges, dataspecName: name };
}

/**
 * Checks what needs the user's zone and the clock (time ranges, all in the past) and fills
 * default names. Nothing here calls the service, so bad input never reaches it.
 */
export function resolveCommand(cmd: Resolvable, ctx: RequestContext): ResolveOutcome {
  const named = (op: string, given: string | undefined) => given ?? defaultName(op, ctx.userName, ctx.now);
  switch (cmd.kind) {
    case 'workspace-create':
    case 'workspace-show':
    case 'model-move':
    case 'model-common':
    case 'flow':
      return { ok: true, operation: cmd };
    case 'live': {
      const { kind: _, ...rest } = cmd;
      return { ok: true, operation: { kind: 'live-request', ...rest } };
    }
    case 'use':
      if (cmd.action === 'set') return { ok: true, operation: { kind: 'defaults-set', values: cmd.values } };
      return { ok: true, operation: { kind: cmd.action === 'clear' ? 'defaults-clear' : 'defaults-show' } };
    case 'approvals':
      return { ok: true, operation: { kind: 'approvals-list' } };
    case 'flows':
      return {
        ok: true,
        operation: { kind: 'flows-list', ...(cmd.limit !== undefined ? { limit: cmd.limit } : {}) },
      };
    case 'audit':
      return {
        ok: true,
        operation: { kind: 'audit-list', ...(cmd.limit !== undefined ? { limit: cmd.limit } : {}) },
      };
    case 'eval': {
      const parsed = parseTimeRange(cmd.rangeText, rangeContext(ctx));
      if (!parsed.ok) return rangeFailure(parsed.error, parsed.examples, 'range');
      const { rangeText: _, ...rest } = cmd;
      return { ok: true, operation: { ...rest, name: named('eval', cmd.name), range: parsed.range } };
    }
    case 'learn':
    case 'relearn':
    case 'score': {
      const name = named(cmd.kind, cmd.name);
      const data = resolveData(cmd.data, ctx, name);
      if ('ok' in data) return data;
      return { ok: true, operation: { ...cmd, name, data } };
    }
  }
}

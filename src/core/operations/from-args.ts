import { parseKeyed } from '../grammar/parse.js';
import type { OpFailure } from '../outcome.js';
import type { Operation } from './operation.js';
import type { OperationEntry } from './registry/entry.js';
import type { RequestContext } from './requests.js';

/**
 * An operation from its arguments given by key (a form's fields, a workflow step's inputs), read as its
 * typed command is: the entry's own parser, then its resolver in the person's zone. `words` are the
 * positional words the command takes before its options (`live start`). A refusal carries the command's
 * usage and example, as a typed command's would.
 */
export function operationFromArgs(
  entry: OperationEntry<unknown, unknown>,
  given: Readonly<Record<string, string>>,
  ctx: RequestContext,
  words: readonly string[] = [],
): { ok: true; operation: Operation } | OpFailure {
  const parsed = parseKeyed(entry.command.id, given, words);
  if (!parsed.ok) {
    const spec = parsed.spec;
    return {
      ok: false,
      message: parsed.message,
      ...(parsed.kind === 'error' && parsed.key ? { argument: parsed.key } : {}),
      ...(spec ? { usage: spec.usage, ...(spec.examples[0] ? { example: spec.examples[0] } : {}) } : {}),
    };
  }
  const resolved = entry.resolve(parsed.command, ctx);
  if (!resolved.ok)
    return {
      ...resolved,
      usage: resolved.usage ?? parsed.spec.usage,
      ...((resolved.example ?? parsed.spec.examples[0])
        ? { example: resolved.example ?? parsed.spec.examples[0] }
        : {}),
    };
  return { ok: true, operation: resolved.operation as Operation };
}

import type { CommandSpec } from '../../grammar/spec.js';
import { anomalyEval } from './anomaly-eval.js';
import { anomalyLearn } from './anomaly-learn.js';
import { anomalyRelearn } from './anomaly-relearn.js';
import { type AnyEntry, commandSpecOf, type OperationEntry } from './entry.js';
import { evalFlow } from './eval.js';
import { flowShow } from './flow.js';
import { liveModel } from './live-model.js';
import { modelCommon } from './model-common.js';
import { modelMove } from './model-move.js';
import { workspaceCreate } from './workspace-create.js';
import { workspaceShow } from './workspace-show.js';

export type {
  AnyEntry,
  Argument,
  EntryOutputs,
  Finished,
  FormItem,
  FormSpec,
  NextStepSpec,
  OperationEntry,
  OutputSpec,
  ResolveOutcome,
  ServiceRole,
} from './entry.js';

/** Every service operation the bot ships, one entry each, in the order help lists them. */
const BUILT_IN = [
  workspaceCreate,
  workspaceShow,
  modelMove,
  modelCommon,
  evalFlow,
  liveModel,
  anomalyLearn,
  anomalyRelearn,
  anomalyEval,
  flowShow,
] as const;

type Built = (typeof BUILT_IN)[number];
// biome-ignore lint/suspicious/noExplicitAny: only the entry's own type parameter is read
type ParsedOf<E> = E extends OperationEntry<infer P, any, any, any, any> ? P : never;
// biome-ignore lint/suspicious/noExplicitAny: only the entry's own type parameter is read
type RequestOf<E> = E extends OperationEntry<any, infer R, any, any, any> ? R : never;

/** The commands of the service operations, as parsed (before names, ranges and defaults are resolved). */
export type ServiceCommand = ParsedOf<Built>;

declare module '../../grammar/types.js' {
  interface ServiceCommands {
    registry: ServiceCommand;
  }
}

/** The service operations, resolved: what an entry executes. */
export type ServiceOperation = RequestOf<Built>;

const entries: AnyEntry[] = [...BUILT_IN];

/** Every service operation, one entry each, in the order help lists them (added ones last). */
export const REGISTRY: readonly AnyEntry[] = entries;

let specs: Map<string, CommandSpec> | undefined;
const watchers: (() => void)[] = [];

/** Be told when operations are added, to derive again what was derived from the registry. */
export function onRegistered(watcher: () => void): void {
  watchers.push(watcher);
}

/**
 * Adds operations the bot does not ship (a test's own, say), before anything reads the registry: each
 * must be whole (its entry as for a built-in one) and named apart from every other. It adds them on the
 * calling thread only; a bot is given them as modules (`BotSetup.operations`, read by added.ts), so that
 * each of its threads registers them before composing.
 */
export function registerOperations(added: readonly AnyEntry[]): void {
  for (const e of added) {
    if (entries.includes(e)) continue;
    const clash = entries.find(
      (o) =>
        o.command.id === e.command.id ||
        o.parsedKind === e.parsedKind ||
        o.operationKind === e.operationKind ||
        (e.form && o.form?.id === e.form.id),
    );
    if (clash) throw new Error(`operation ${e.command.id} is named like ${clash.command.id}`);
    entries.push(e);
  }
  specs = undefined;
  for (const w of watchers) w();
}

/** The command spec of each entry, by command id, its keys and usage read from its arguments. */
export function registeredSpec(id: string): CommandSpec | undefined {
  specs ??= new Map(entries.map((e) => [e.command.id, commandSpecOf(e)]));
  return specs.get(id);
}

export function entryOfCommand(id: string): AnyEntry | undefined {
  return entries.find((e) => e.command.id === id);
}

export function entryOfParsed(kind: string): AnyEntry | undefined {
  return entries.find((e) => e.parsedKind === kind);
}

/** The entry whose form has this name (`learn`, `eval`, …). */
export function entryOfForm(id: string): AnyEntry | undefined {
  return entries.find((e) => e.form?.id === id);
}

export function entryOfOperation(kind: string): AnyEntry | undefined {
  return entries.find((e) => e.operationKind === kind);
}

/** The entry of a service operation. */
export function entryOf(op: { kind: string }): AnyEntry {
  const entry = entryOfOperation(op.kind);
  if (!entry) throw new Error(`no operation ${op.kind} in the registry`);
  return entry;
}

/** The names of the forms, in the registry's order. */
export function formIds(): string[] {
  return entries.flatMap((e) => (e.form ? [e.form.id] : []));
}

import type { FlowResults } from '../../api/index.js';
import type { CatalogKind, CatalogUpsert } from '../../store/index.js';
import type { AnyEntry, Finished, NextStepSpec, OutputSpec } from '../operations/registry/entry.js';
import { entryOfOperation, REGISTRY } from '../operations/registry/index.js';

/** What a completed flow's entry reads its outputs from: the results as read, and the request as stored. */
export interface FlowAsStored {
  result?: Record<string, unknown> | null;
  request: unknown;
}

/** The results the tracker stored, each list empty when the record said nothing. */
export function resultsOf(f: FlowAsStored): FlowResults {
  const r = (f.result ?? {}) as Partial<FlowResults>;
  return {
    models: r.models ?? [],
    dataspecs: r.dataspecs ?? [],
    evals: r.evals ?? [],
    signals: r.signals ?? [],
    segments: r.segments ?? [],
    others: r.others ?? [],
    refused: r.refused ?? [],
  };
}

/** The stored request's operation (JSON: instants as ISO strings). */
export function operationOf(f: FlowAsStored): Record<string, unknown> {
  const op = (f.request as { operation?: unknown } | null)?.operation;
  return op && typeof op === 'object' ? (op as Record<string, unknown>) : {};
}

/** One declared output an operation yielded, with its value (of its type: `spec.type.fits` said so). */
export interface Output {
  spec: OutputSpec;
  value: unknown;
}

/** What an operation yielded, as its entry declares it: each output with a value, in the declared order. */
export interface Yielded {
  outputs: readonly Output[];
  /** Names the entry's reading returned that it does not declare: left out, and a test refuses them. */
  undeclared: readonly string[];
}

const NOTHING: Yielded = { outputs: [], undeclared: [] };

/** What an operation yielded, read by its entry and kept to what the entry declares. */
export function readOutputs(entry: AnyEntry | undefined, done: Finished<unknown>): Yielded {
  const outputs = entry?.outputs;
  if (!outputs) return NOTHING;
  const values = outputs.read(done);
  const declared = new Set(outputs.declared.map((o) => o.name));
  return {
    outputs: outputs.declared.flatMap((spec) => {
      const value = values[spec.name];
      return value !== undefined && spec.type.fits(value) ? [{ spec, value }] : [];
    }),
    undeclared: Object.keys(values).filter((k) => values[k] !== undefined && !declared.has(k)),
  };
}

/** What a completed flow yields, as the entry of the operation that created it declares. */
export function flowOutputs(f: FlowAsStored): Yielded {
  const request = operationOf(f);
  const entry = typeof request.kind === 'string' ? entryOfOperation(request.kind) : undefined;
  return readOutputs(entry, { request, results: resultsOf(f) });
}

/** The ID an output stands for, when it stands for one: what it gives the argument it feeds. */
export function idOfOutput(o: Output): string | undefined {
  return o.spec.type.idOf(o.value);
}

/**
 * What the catalog learns of what a flow yielded: each output the entry declares a catalog kind for,
 * linked to the outputs its declaration names; and the resources it says are gone.
 */
export function catalogOfOutputs(y: Yielded): {
  add: CatalogUpsert[];
  remove: { kind: CatalogKind; id: string }[];
} {
  const byName = new Map(y.outputs.map((o) => [o.spec.name, o]));
  const add: CatalogUpsert[] = [];
  const remove: { kind: CatalogKind; id: string }[] = [];
  for (const o of y.outputs) {
    const catalog = o.spec.catalog;
    if (!catalog) continue;
    const items = o.spec.type.resources(o.value);
    if (catalog.forget) {
      remove.push(...items.map((x) => ({ kind: catalog.kind.name, id: x.id })));
      continue;
    }
    const links: Record<string, string> = {};
    for (const [kind, name] of Object.entries(catalog.links ?? {})) {
      const linked = byName.get(name as string);
      const id = linked && idOfOutput(linked);
      if (id) links[kind] = id;
    }
    for (const x of items)
      add.push({
        kind: catalog.kind.name,
        id: x.id,
        source: 'flow',
        ...(x.name ? { name: x.name } : {}),
        ...(Object.keys(links).length ? { links } : {}),
      });
  }
  return { add, remove };
}

/** A next step a finished flow's outputs make possible, and what it is given. */
export interface NextStep {
  /** Its name, unique in the registry: the form it opens (`score`), else its command and word (`live-start`). */
  id: string;
  label: string;
  primary: boolean;
  /** The form it opens; absent: it runs its command. */
  form?: string;
  /** The IDs it is given, by argument key. */
  given: Record<string, string>;
}

/** A next step's name: the entry's form's, else its command's words and its own word. */
export function nextStepId(entry: AnyEntry, step: NextStepSpec): string {
  const words = entry.form ? [entry.form.id] : [...entry.command.words, ...(step.word ? [step.word] : [])];
  return words
    .join('-')
    .replace(/[^a-z0-9-]+/gi, '-')
    .toLowerCase();
}

/** Every next step the registry declares, with its entry. */
export function allNextSteps(): { id: string; entry: AnyEntry; step: NextStepSpec }[] {
  return REGISTRY.flatMap((entry) =>
    (entry.next ?? []).map((step) => ({ id: nextStepId(entry, step), entry, step })),
  );
}

/** The next step of this name, and its entry. */
export function nextStepOf(id: string): { entry: AnyEntry; step: NextStepSpec } | undefined {
  return allNextSteps().find((s) => s.id === id);
}

/**
 * The next steps a finished flow's outputs make possible: each entry's that its outputs fill what it needs
 * for, in the state it asks for; a form given every argument the outputs feed and it has a field for, a
 * command only what it needs. Primary first, then in the registry's order.
 */
export function nextStepsOf(y: Yielded): NextStep[] {
  const fed: Record<string, string> = {};
  const flags: Record<string, boolean> = {};
  for (const o of y.outputs) {
    const id = idOfOutput(o);
    if (typeof o.spec.feeds === 'string' && id && !(o.spec.feeds in fed)) fed[o.spec.feeds] = id;
    const flag = o.spec.type.flag(o.value);
    if (flag !== undefined) flags[o.spec.name] = flag;
  }
  const steps: NextStep[] = [];
  for (const { id, entry, step } of allNextSteps()) {
    if (!step.needs.every((k) => fed[k])) continue;
    if (!Object.entries(step.when ?? {}).every(([name, state]) => flags[name] === state)) continue;
    const keys = entry.form
      ? entry.args.filter((a) => a.field && fed[a.key]).map((a) => a.key)
      : [...step.needs];
    steps.push({
      id,
      label: step.label,
      primary: step.primary === true,
      ...(entry.form ? { form: entry.form.id } : {}),
      given: Object.fromEntries(keys.map((k) => [k, fed[k]!])),
    });
  }
  return steps.sort((a, b) => Number(b.primary) - Number(a.primary));
}

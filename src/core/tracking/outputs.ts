import type { FlowResults } from '../../api/index.js';
import type { CatalogKind } from '../../store/index.js';
import type { FlowResultSeen } from '../catalog/record.js';
import type { FlowOutputs } from '../operations/registry/entry.js';
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
  };
}

/** The stored request's operation (JSON: instants as ISO strings). */
function operationOf(f: FlowAsStored): Record<string, unknown> {
  const op = (f.request as { operation?: unknown } | null)?.operation;
  return op && typeof op === 'object' ? (op as Record<string, unknown>) : {};
}

/** What a completed flow yields, as the entry of the operation that created it declares. */
export function outputsOf(f: FlowAsStored): FlowOutputs {
  const request = operationOf(f);
  const entry = typeof request.kind === 'string' ? entryOfOperation(request.kind) : undefined;
  return entry?.outputs?.({ results: resultsOf(f), request }) ?? {};
}

/** What the catalog learns of a completed flow's outputs: what it yields, and what its record names. */
export function catalogOfOutputs(
  o: FlowOutputs,
): FlowResultSeen & { removed: { kind: CatalogKind; id: string }[] } {
  const model = o.model ?? o.used?.model;
  const dataspec = o.dataspec ?? o.used?.dataspec;
  const named = (x: { id: string; name?: string | undefined }) => ({
    id: x.id,
    ...(x.name ? { name: x.name } : {}),
  });
  return {
    ...(o.workspace ? { workspaceId: o.workspace.id } : {}),
    ...(model ? { model: named(model) } : {}),
    ...(dataspec ? { dataspec: named(dataspec) } : {}),
    ...(o.eval ? { eval: named(o.eval) } : {}),
    removed: o.removed ?? [],
  };
}

/** A form offered as the next step after a flow that yielded a model, and what it is given. */
export interface NextStep {
  form: string;
  label: string;
  primary: boolean;
  /** The IDs the form has fields for, by argument key: the model, its workspace, its dataspec. */
  given: Record<string, string>;
}

/** The next steps a completed flow's outputs make possible: the forms that declare one, primary first. */
export function nextStepsOf(o: FlowOutputs): NextStep[] {
  if (!o.model) return [];
  const ids: Record<string, string | undefined> = {
    model: o.model.id,
    workspace: o.workspace?.id,
    dataspec: o.dataspec?.id,
  };
  const steps: NextStep[] = [];
  for (const e of REGISTRY) {
    const step = e.form?.nextStep;
    if (!e.form || !step) continue;
    const given: Record<string, string> = {};
    for (const [key, id] of Object.entries(ids))
      if (id && e.args.some((a) => a.key === key && a.field)) given[key] = id;
    if (!given.model) continue;
    steps.push({ form: e.form.id, label: step.label, primary: step.primary === true, given });
  }
  return steps.sort((a, b) => Number(b.primary) - Number(a.primary));
}

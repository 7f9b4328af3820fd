import type { FlowResults } from '../../src/api/index.js';
import { type Recording, recordChange } from '../../src/core/catalog/index.js';
import { anomalyEval } from '../../src/core/operations/registry/anomaly-eval.js';
import { anomalyLearn } from '../../src/core/operations/registry/anomaly-learn.js';
import { anomalyRelearn } from '../../src/core/operations/registry/anomaly-relearn.js';
import { catalogOfOutputs, readOutputs } from '../../src/core/tracking/outputs.js';
import type { Store } from '../../src/store/index.js';

/** What a completed flow's record named, as a test states it. */
export interface FlowSeen {
  workspaceId?: string;
  /** `created: false`: a relearn taught it; else a learn created it. */
  model?: { id: string; name?: string; created?: boolean; assessmentId?: string };
  dataspec?: { id: string; name?: string };
  /** An Eval object a score created, of `modelId`. */
  eval?: { id: string; name?: string; modelId?: string };
}

/**
 * Records what a completed flow yielded as the tracker does: read by the real entry of the flow that
 * would have yielded it (a learn, a relearn, a score), through its declared outputs, into the catalog.
 */
export async function recordFlowResult(store: Store, seen: FlowSeen & Recording): Promise<void> {
  const results: FlowResults = {
    models: seen.model
      ? [
          {
            id: seen.model.id,
            ...(seen.model.name ? { name: seen.model.name } : {}),
            ...(seen.model.assessmentId ? { assessment: seen.model.assessmentId } : {}),
          },
        ]
      : [],
    dataspecs: seen.dataspec ? [seen.dataspec] : [],
    evals: seen.eval
      ? [{ id: seen.eval.id, ...(seen.eval.name ? { name: seen.eval.name } : {}), outputSignals: [] }]
      : [],
    signals: [],
    segments: [],
    refused: [],
    others: [],
  };
  const entry = seen.eval ? anomalyEval : seen.model?.created === false ? anomalyRelearn : anomalyLearn;
  const request = {
    kind: entry.operationKind,
    ...(seen.workspaceId ? { workspaceId: seen.workspaceId } : {}),
    ...(seen.eval?.modelId ? { modelId: seen.eval.modelId } : {}),
  };
  await recordChange(store, {
    ...catalogOfOutputs(readOutputs(entry, { request, results })),
    teamId: seen.teamId,
    ...(seen.now ? { now: seen.now } : {}),
  });
}

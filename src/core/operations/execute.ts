import type { Dataspec, FlowRecord, ServiceClient } from '../../api/index.js';
import { describeRange, toIso, toNanos } from '../../time/index.js';
import type { Fact, OpOutcome, OpSuccess } from '../outcome.js';
import { serviceFailure } from '../service-errors.js';
import type { Operation } from './operation.js';
import type { OpRequest, ResolvedData, ResolvedOutput } from './requests.js';

/** The operations `execute` performs: those that reach the service. */
export type ServiceOperation = OpRequest | Extract<Operation, { kind: 'live-model' }>;

export const ACTIVITY_VIEW_HINT = "Track its progress in the service's Activity view.";

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function modelSeen(m: { id: string; name?: unknown; workspace?: unknown }): OpSuccess['seen'] {
  return {
    id: m.id,
    ...(str(m.name) ? { name: str(m.name)! } : {}),
    ...(str(m.workspace) ? { workspace: str(m.workspace)! } : {}),
  };
}

function flowOf(record: FlowRecord): { id: string; status: string } {
  return { id: record.id, status: str(record.status) ?? 'unknown' };
}

export function toDataspec(data: ResolvedData): Dataspec {
  if (data.kind === 'dataspec') return { id: data.dataspecId };
  return {
    name: data.dataspecName,
    specs: [
      {
        timeRanges: data.ranges.map((r) => ({ startTime: toIso(r.startNs), endTime: toIso(r.endNs) })),
        signals: data.signals.map((s) => ({ signal: s.signal, name: s.name })),
      },
    ],
  };
}

function dataFacts(data: ResolvedData, timeZone: string): Fact[] {
  if (data.kind === 'dataspec') return [{ label: 'Dataspec', value: data.dataspecId, code: true }];
  return [
    {
      label: data.signals.length === 1 ? 'Signal' : 'Signals',
      value: data.signals.map((s) => (s.name === s.signal ? s.signal : `${s.signal} (${s.name})`)).join('\n'),
    },
    {
      label: data.ranges.length === 1 ? 'Time range' : 'Time ranges',
      value: data.ranges.map((r) => describeRange(r, timeZone)).join('\n'),
    },
  ];
}

function outputFacts(output: ResolvedOutput): Fact[] {
  if (output.kind === 'prefix') {
    return [{ label: 'Outputs', value: `new signals named ${output.prefix}/<output name>` }];
  }
  return [
    {
      label: 'Outputs',
      value: output.signals
        .map((s) => (s.name === s.signal ? s.signal : `${s.name} → ${s.signal}`))
        .join('\n'),
    },
  ];
}

function described(description: string | undefined): Fact[] {
  return description ? [{ label: 'Description', value: description }] : [];
}

/**
 * Runs a resolved request against the service and describes the outcome. Service failures become
 * user sentences; the caller decides where the outcome is shown.
 */
export async function execute(
  req: ServiceOperation,
  service: ServiceClient,
  timeZone: string,
): Promise<OpOutcome> {
  switch (req.kind) {
    case 'live-model': {
      const verb = req.action === 'start' ? 'start' : 'stop';
      try {
        const body = { name: req.name, model: req.modelId };
        const flow =
          req.action === 'start' ? await service.startLiveModel(body) : await service.stopLiveModel(body);
        return {
          ok: true,
          kind: 'service',
          visibility: 'channel',
          title: `${verb === 'start' ? 'started' : 'stopped'} live model ${req.modelId}`,
          flow: flowOf(flow),
          facts: [
            { label: 'Model', value: req.modelId, code: true },
            { label: 'Name', value: req.name, code: true },
          ],
        };
      } catch (e) {
        return serviceFailure(e, `${verb} the live model`, { what: 'flow', name: req.name });
      }
    }
    case 'workspace-create': {
      try {
        const ws = await service.createWorkspace({
          name: req.name,
          ...(req.description ? { description: req.description } : {}),
        });
        return {
          ok: true,
          kind: 'service',
          visibility: 'channel',
          title: 'created a workspace',
          seen: { id: ws.id, ...(str(ws.name) ? { name: str(ws.name)! } : {}) },
          facts: [
            { label: 'Workspace ID', value: ws.id, code: true },
            { label: 'Name', value: str(ws.name) ?? req.name, code: true },
            ...described(str(ws.description) ?? req.description),
          ],
        };
      } catch (e) {
        return serviceFailure(e, 'create the workspace', { what: 'workspace', name: req.name });
      }
    }
    case 'workspace-show': {
      try {
        const ws = await service.getWorkspace(req.workspaceId);
        return {
          ok: true,
          kind: 'service',
          visibility: 'ephemeral',
          title: `Workspace ${str(ws.name) ?? ws.id}`,
          seen: { id: ws.id, ...(str(ws.name) ? { name: str(ws.name)! } : {}) },
          facts: [
            { label: 'Workspace ID', value: ws.id, code: true },
            ...(str(ws.name) ? [{ label: 'Name', value: str(ws.name)!, code: true }] : []),
            ...described(str(ws.description)),
            ...(typeof ws.createTime === 'number'
              ? [{ label: 'Created', value: new Date(ws.createTime).toISOString() }]
              : []),
          ],
        };
      } catch (e) {
        return serviceFailure(e, `get workspace ${req.workspaceId}`);
      }
    }
    case 'model-move': {
      try {
        const model = await service.moveModel(req.modelId, req.workspaceId);
        return {
          ok: true,
          kind: 'service',
          visibility: 'channel',
          title: 'moved a model to another workspace',
          seen: modelSeen(model),
          facts: [
            { label: 'Model', value: model.id, code: true },
            { label: 'Now in workspace', value: str(model.workspace) ?? req.workspaceId, code: true },
          ],
        };
      } catch (e) {
        return serviceFailure(e, `move model ${req.modelId}`);
      }
    }
    case 'model-common': {
      try {
        const model = await service.findCommonModel(req.assessmentId);
        if (!model) {
          return { ok: false, message: `Assessment ${req.assessmentId} has no common model (M[0]).` };
        }
        return {
          ok: true,
          kind: 'service',
          visibility: 'ephemeral',
          title: `Common model (M[0]) of assessment ${req.assessmentId}`,
          seen: modelSeen(model),
          facts: [
            { label: 'Model ID', value: model.id, code: true },
            ...(str(model.name) ? [{ label: 'Name', value: str(model.name)!, code: true }] : []),
            ...(str(model.workspace)
              ? [{ label: 'Workspace', value: str(model.workspace)!, code: true }]
              : []),
          ],
        };
      } catch (e) {
        return serviceFailure(e, `look up the common model of assessment ${req.assessmentId}`);
      }
    }
    case 'eval': {
      let commonModelId: string;
      let m0Seen: OpSuccess['seen'];
      try {
        const m0 = await service.findCommonModel(req.assessmentId);
        if (!m0) {
          return {
            ok: false,
            message: `Assessment ${req.assessmentId} has no common model (M[0]), so there is no live output to backfill. Check the assessment ID.`,
          };
        }
        commonModelId = m0.id;
        m0Seen = modelSeen(m0);
      } catch (e) {
        return serviceFailure(e, `look up the common model of assessment ${req.assessmentId}`);
      }
      try {
        const flow = await service.createEvalFlow({
          name: req.name,
          datastream: req.datastreamId,
          assessment: req.assessmentId,
          model: req.modelId,
          spec: {
            commonModelId,
            segments: [
              {
                entities: req.entities,
                timeRange: { startTime: toNanos(req.range.startNs), endTime: toNanos(req.range.endNs) },
              },
            ],
            forLive: true,
            withEpisodes: true,
          },
        });
        return {
          ok: true,
          kind: 'service',
          visibility: 'channel',
          title: 'started an EVAL flow (backfill of live model output)',
          flow: flowOf(flow),
          seen: m0Seen,
          facts: [
            { label: 'Name', value: req.name, code: true },
            { label: 'Assessment', value: req.assessmentId, code: true },
            { label: 'Live model', value: req.modelId, code: true },
            { label: 'Common model M[0]', value: commonModelId, code: true },
            { label: 'Datastream', value: req.datastreamId, code: true },
            { label: req.entities.length === 1 ? 'Entity' : 'Entities', value: req.entities.join(', ') },
            { label: 'Time range', value: describeRange(req.range, timeZone) },
          ],
          notes: [`Output for ranges already evaluated live is overwritten. ${ACTIVITY_VIEW_HINT}`],
        };
      } catch (e) {
        return serviceFailure(e, 'create the EVAL flow', { what: 'flow', name: req.name });
      }
    }
    case 'learn': {
      try {
        const flow = await service.anomalyLearn({
          name: req.name,
          ...(req.description ? { description: req.description } : {}),
          spec: {
            workspace: req.workspaceId,
            ...(req.modelName ? { modelName: req.modelName } : {}),
            dataspec: toDataspec(req.data),
          },
        });
        return {
          ok: true,
          kind: 'service',
          visibility: 'channel',
          title: 'started an ANOMALYLEARN flow (new anomaly model)',
          flow: flowOf(flow),
          facts: [
            { label: 'Name', value: req.name, code: true },
            { label: 'Workspace', value: req.workspaceId, code: true },
            {
              label: 'Model name',
              value: req.modelName ?? 'service default ({{workspaceName}}/{{modelType}}/M[{{index}}])',
              code: req.modelName !== undefined,
            },
            ...dataFacts(req.data, timeZone),
            ...described(req.description),
          ],
        };
      } catch (e) {
        return serviceFailure(e, 'create the ANOMALYLEARN flow', { what: 'flow', name: req.name });
      }
    }
    case 'relearn': {
      try {
        const flow = await service.anomalyLearnIncremental({
          name: req.name,
          ...(req.description ? { description: req.description } : {}),
          spec: { model: req.modelId, workspace: req.workspaceId, dataspec: toDataspec(req.data) },
        });
        return {
          ok: true,
          kind: 'service',
          visibility: 'channel',
          title: 'started an incremental ANOMALYLEARN flow (existing model)',
          flow: flowOf(flow),
          facts: [
            { label: 'Name', value: req.name, code: true },
            { label: 'Model', value: req.modelId, code: true },
            { label: 'Workspace', value: req.workspaceId, code: true },
            ...dataFacts(req.data, timeZone),
            ...described(req.description),
          ],
        };
      } catch (e) {
        return serviceFailure(e, 'create the incremental ANOMALYLEARN flow', {
          what: 'flow',
          name: req.name,
        });
      }
    }
    case 'score': {
      try {
        const flow = await service.anomalyEval({
          name: req.name,
          ...(req.description ? { description: req.description } : {}),
          spec: {
            model: req.modelId,
            workspace: req.workspaceId,
            dataspec: toDataspec(req.data),
            ...(req.output.kind === 'prefix'
              ? { outputsignalPrefix: req.output.prefix }
              : { outputsignals: req.output.signals.map((s) => ({ signal: s.signal, name: s.name })) }),
          },
        });
        return {
          ok: true,
          kind: 'service',
          visibility: 'channel',
          title: 'started an ANOMALYEVAL flow (scoring)',
          flow: flowOf(flow),
          facts: [
            { label: 'Name', value: req.name, code: true },
            { label: 'Model', value: req.modelId, code: true },
            { label: 'Workspace', value: req.workspaceId, code: true },
            ...dataFacts(req.data, timeZone),
            ...outputFacts(req.output),
            ...described(req.description),
          ],
        };
      } catch (e) {
        return serviceFailure(e, 'create the ANOMALYEVAL flow', { what: 'flow', name: req.name });
      }
    }
    case 'flow': {
      try {
        const found = await service.getFlow(req.flowId);
        if (!found.supported) {
          return {
            ok: true,
            kind: 'service',
            visibility: 'ephemeral',
            title: `Flow ${req.flowId}`,
            facts: [],
            notes: [`The service does not report flow status through its API. ${ACTIVITY_VIEW_HINT}`],
          };
        }
        const f = found.flow;
        return {
          ok: true,
          kind: 'service',
          visibility: 'ephemeral',
          title: `Flow ${str(f.name) ?? f.id}`,
          flow: flowOf(f),
          facts: [
            ...(str(f.flowType) ? [{ label: 'Type', value: str(f.flowType)! }] : []),
            ...(str(f.name) ? [{ label: 'Name', value: str(f.name)!, code: true }] : []),
            ...(typeof f.updateTime === 'number'
              ? [{ label: 'Updated', value: new Date(f.updateTime).toISOString() }]
              : []),
          ],
        };
      } catch (e) {
        return serviceFailure(e, `get flow ${req.flowId}`);
      }
    }
  }
}

import { ServiceError } from '../../../api/errors.js';
import type { FlowRecord } from '../../../wire/index.js';
import { ok, soleIdFrom } from '../../grammar/args.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { ID } from '../../kinds/index.js';
import type { OpFailure } from '../../outcome.js';
import { serviceFailure } from '../../service-errors.js';
import { ACTIVITY_VIEW_HINT, flowOf, schemasOf, str } from './describe.js';
import type { Argument, OperationEntry } from './entry.js';

export interface FlowShow {
  kind: 'flow';
  flowId: string;
}

/**
 * What `/tsai flow` says of a flow it cannot show: one the service does not know, and one started from
 * another Slack workspace, alike, so that the answer tells nothing of the other workspace's flows.
 */
export function flowNotFound(flowId: string): OpFailure {
  return {
    ok: false,
    status: 404,
    message: `There is no flow ${flowId} to show here: the service does not know it, or it was started from another Slack workspace. Check the ID; \`/tsai flows\` lists the flows started in this channel.`,
  };
}

/** A flow's ID: flows are not in the catalog, so no name stands for one. */
const FLOW: Argument<string> = {
  key: 'flow',
  kind: ID,
  lookup: {},
  required: true,
  help: 'The flow to show.',
  shape: '<flow_id>',
};

/** One flow read back: the runner adds what following it found. */
export const flowShow: OperationEntry<FlowShow, FlowShow, never, FlowRecord> = {
  parsedKind: 'flow',
  operationKind: 'flow',
  command: {
    id: 'flow',
    words: ['flow'],
    summary: "Show a flow: what the bot knows from following it, and the service's status now.",
    examples: [`/tsai flow ${X.flow}`],
    mutating: false,

    said: [
      {
        phrases: [
          'status of flow',
          'flow status',
          'how is flow',
          'show flow',
          'what happened to flow',
          'flow',
        ],
      },
    ],
  },
  args: [FLOW],
  role: 'User',
  parse: (args, spec) =>
    ok({ kind: 'flow', flowId: soleIdFrom(args, spec, FLOW, '`flow` needs a flow ID.') }, spec),
  resolve: (command) => ({ ok: true, operation: command }),
  // The read-back the tracker makes too: the client reads the record tolerantly (`getFlow`).
  wire: {
    method: 'GET',
    version: '1.3',
    path: '/flows/{flow}',
    label: 'flow',
    what: 'flow {flow}',
    schemas: schemasOf((w) => ({ answer: { record: w.flowRecord } })),
  },
  async execute(req, { service }) {
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
      const failed = found.view.ended && found.view.phase !== 'completed';
      return {
        ok: true,
        kind: 'service',
        visibility: 'ephemeral',
        title: `Flow ${str(f.name) ?? f.id}`,
        flow: flowOf(f),
        facts: [
          ...(str(f.flowType) ? [{ label: 'Type', value: str(f.flowType)! }] : []),
          ...(str(f.name) ? [{ label: 'Name', value: str(f.name)!, code: true }] : []),
          ...(found.view.updateTime !== undefined
            ? [{ label: 'Updated', value: String(found.view.updateTime), time: true }]
            : []),
          ...(failed ? [{ label: 'The service said', value: found.view.message ?? 'no reason given' }] : []),
        ],
      };
    } catch (e) {
      if (e instanceof ServiceError && e.status === 404) return flowNotFound(req.flowId);
      return serviceFailure(e, `get flow ${req.flowId}`);
    }
  },
  catalog: () => ({ add: [] }),
};

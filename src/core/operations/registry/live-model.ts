import type { ApprovalAction } from '../../../store/index.js';
import { Bad, idFrom, ok, optionId, takePositional, text, tooMany } from '../../grammar/args.js';
import { EXAMPLE_IDS as X } from '../../ids.js';
import { serviceFailure } from '../../service-errors.js';
import { flowOf } from './describe.js';
import type { OperationEntry } from './entry.js';

export interface LiveCommand {
  kind: 'live';
  action: 'start' | 'stop';
  modelId?: string;
  assessmentId?: string;
  reason?: string;
}

/** The STARTLIVEMODEL/STOPLIVEMODEL flow of a request an approver has approved. */
export interface LiveModel {
  kind: 'live-model';
  action: ApprovalAction;
  modelId: string;
  name: string;
  approvalId: string;
  /** Who asked for it (the approver runs it). */
  requesterId?: string;
}

/**
 * STARTLIVEMODEL/STOPLIVEMODEL: the command files a request (an approver decides it); the flow is created
 * when the request is approved.
 */
export const liveModel: OperationEntry<LiveCommand, LiveModel> = {
  parsedKind: 'live',
  operationKind: 'live-model',
  command: {
    id: 'live',
    words: ['live'],
    usage:
      '/tsai live start|stop <model_id> [reason=…]  or  /tsai live start|stop assessment=<id> [reason=…]',
    summary: 'Ask for a live model to be started or stopped (needs approval).',
    examples: [
      `/tsai live start ${X.model} reason="new baseline"`,
      `/tsai live stop assessment=${X.assessment}`,
    ],
    mutating: true,
  },
  args: [
    { key: 'model', kind: 'id', required: false, help: 'The model to start or stop (or `assessment=`).' },
    { key: 'assessment', kind: 'id', required: false, help: 'The assessment whose M[0] it is.' },
    { key: 'reason', kind: 'text', required: false, help: 'Why, for the approver.', freeText: true },
  ],
  parse(args, spec) {
    const action = takePositional(args)?.value.toLowerCase();
    if (action !== 'start' && action !== 'stop') {
      throw new Bad(
        action
          ? `\`${action}\` is not a \`live\` action: use \`start\` or \`stop\`.`
          : '`live` needs `start` or `stop`.',
      );
    }
    const modelId = idFrom(args, 'model', 'model', true);
    tooMany(args, 0, spec);
    const assessmentId =
      args.options.assessment !== undefined ? optionId(args, 'assessment', 'assessment') : undefined;
    if (modelId && assessmentId) throw new Bad('Give either a model ID or `assessment=`, not both.');
    if (!modelId && !assessmentId)
      throw new Bad(`\`live ${action}\` needs a model ID or \`assessment=<id>\`.`);
    return ok({ kind: 'live', action, modelId, assessmentId, reason: text(args, 'reason') }, spec);
  },
  resolve(command) {
    const { kind: _, ...rest } = command;
    return { ok: true, operation: { kind: 'live-request', ...rest } };
  },
  flowType: (req) => (req.action === 'start' ? 'STARTLIVEMODEL' : 'STOPLIVEMODEL'),
  async execute(req, service) {
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
  },
};

import type { ApprovalAction, Store } from '../../store/index.js';

/** A model's record as the service answered it; `live` only when the service says it. */
export interface ModelSeen {
  id: string;
  live?: unknown;
  /** The workspace the model is in, when the service says. */
  workspace?: string;
}

export interface PrecheckDeps {
  store: Pick<Store, 'getCatalogEntry' | 'listTrackedFlows'>;
}

export interface PrecheckInput {
  action: ApprovalAction;
  modelId: string;
  teamId?: string;
  /**
   * The model's record, when the request named its assessment and the service was just asked. A model
   * named by ID is not looked up again: the service has no read of one model, and a pre-check never
   * costs a call the request itself would not make.
   */
  record?: ModelSeen;
  /**
   * What did not happen, for the refusal's sentence: by default no approver was asked (a request being
   * filed); "nothing was sent" when the flow was about to be created (an approval, a schedule's run).
   */
  nothing?: string;
  /** Whether the model's state counts (default yes): a schedule made now runs later, in a state unknown. */
  state?: boolean;
}

/** How many of a team's live flows are read to find what the bot knows of a model. */
const LOOK_BACK = 100;

/**
 * What makes a live start or stop pointless before any approver is asked, when the bot can tell: the
 * service said the model does not exist, or the model is already in the state asked for, by the
 * service's model record or by the last live flow the bot followed to its end. Undefined when nothing
 * stands in the way (or the bot cannot tell).
 */
export async function liveRequestRefusal(deps: PrecheckDeps, q: PrecheckInput): Promise<string | undefined> {
  const { store } = deps;
  const nothing = q.nothing ?? 'nothing was asked of the approvers';
  const entry = q.teamId ? await store.getCatalogEntry(q.teamId, 'model', q.modelId) : null;
  if (entry?.missingAt != null)
    return `The service said model ${q.modelId} does not exist, so ${nothing}. \`/tsai model common <assessment_id>\` finds an assessment's common model.`;

  if (q.state === false) return undefined;
  const team = q.teamId ? { teamId: q.teamId } : {};
  const record = q.record;
  const state =
    typeof record?.live === 'boolean'
      ? { live: record.live, known: "the service's record of the model says so" }
      : await stateFromFlows(store, q.modelId, team);
  if (!state || state.live !== (q.action === 'start')) return undefined;
  const other = q.action === 'start' ? 'stop' : 'start';
  return q.action === 'start'
    ? `Model ${q.modelId} is already live (${state.known}), so ${nothing}. To stop it: \`/tsai live ${other} ${q.modelId}\`.`
    : `Model ${q.modelId} is not live (${state.known}), so there is nothing to stop and ${nothing}. To start it: \`/tsai live ${other} ${q.modelId}\`.`;
}

/**
 * The model's state after the last live start or stop of it that the bot followed to COMPLETED, whoever
 * asked for it: an approved request, or a schedule's run (whose flows no request records).
 */
async function stateFromFlows(
  store: PrecheckDeps['store'],
  modelId: string,
  team: { teamId?: string },
): Promise<{ live: boolean; known: string } | undefined> {
  const flows = await store.listTrackedFlows({
    ...team,
    flowTypes: [LIVE_FLOW.start, LIVE_FLOW.stop],
    limit: LOOK_BACK,
  });
  const last = flows
    .filter((f) => f.endReason === 'ended' && f.status.toUpperCase() === 'COMPLETED')
    .filter((f) => liveModelOf(f.request) === modelId)
    .sort((a, b) => (b.finishedAt ?? 0) - (a.finishedAt ?? 0))[0];
  if (!last) return undefined;
  const started = last.flowType === LIVE_FLOW.start;
  return {
    live: started,
    known: `flow ${last.flowId}, which the bot followed, ${started ? 'started' : 'stopped'} it`,
  };
}

const LIVE_FLOW = { start: 'STARTLIVEMODEL', stop: 'STOPLIVEMODEL' } as const;

/** The model a followed live flow was for, from the operation it stored. */
function liveModelOf(request: Record<string, unknown>): string | undefined {
  const op = request.operation as { modelId?: unknown } | undefined;
  return typeof op?.modelId === 'string' ? op.modelId : undefined;
}

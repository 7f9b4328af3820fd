import type { Store } from '../../store/index.js';
import type { ApproverRule } from '../approvals/approver-rule.js';
import { liveRequestRefusal } from '../approvals/live-prechecks.js';
import { workspaceLabel } from '../approvals/rules.js';
import type { CommandSpec } from '../grammar/commands.js';
import type { Actor, Operation } from '../operations/operation.js';
import { reachesService } from '../operations/operation.js';
import { requestParams } from '../operations/params.js';
import type { OpFailure } from '../outcome.js';
import type { AccessPolicy } from '../policy.js';
import { type SlackStanding, standingRefusal } from './authenticate.js';
import { policyOf } from './needs.js';
import type { LiveApproval, Resource } from './resource.js';

/**
 * The last step of the gate: may the person it acts for do this, here, now. The access policy (an operator
 * for what changes something, an allowed channel), then, for a live start or stop, its approval (one more
 * condition, never instead of the others) and the live pre-checks. A live flow acts on behalf of whoever
 * asked for it (a request's requester, a schedule's owner), so the policy and their Slack standing are
 * theirs, in the channel they asked in, at the moment the flow is created.
 */
export interface PermissionDeps {
  store: Pick<Store, 'getCatalogEntry' | 'listTrackedFlows'>;
  policy: AccessPolicy;
  approvers: ApproverRule;
  standing?: SlackStanding;
}

export async function assertPermissions(
  deps: PermissionDeps,
  actor: Actor,
  op: Operation,
  resource: Resource,
): Promise<OpFailure | null> {
  const live = resource.kind === 'live' ? resource : undefined;
  if (live?.approval.kind === 'unknown') return notApproved(live.action);
  const asker = live?.asker ?? { userId: actor.userId, channelId: actor.channelId };
  if (asker.userId !== actor.userId) {
    const { refusal } = await standingRefusal(deps, { teamId: actor.teamId ?? '', userId: asker.userId });
    if (refusal) return refusal;
  }
  const spec = policyOf(op);
  if (spec) {
    const refused = await policyRefusal(
      deps.policy,
      {
        userId: asker.userId,
        ...(actor.teamId ? { teamId: actor.teamId } : {}),
        channelId: asker.channelId,
        via: actor.surface,
      },
      spec,
      reachesService(op) && op.kind !== 'live-model' ? requestParams(op) : { ...op },
    );
    // Said of the person it acts for, who is not the one who clicked (an approver).
    if (refused && asker.userId !== actor.userId)
      return {
        ...refused,
        message: `Nothing was sent: the person who asked for it ${refused.lost}, and an approval does not stand in for their own rights.`,
      };
    if (refused) return refused;
  }
  if (!live) return null;
  // What would do nothing is said first: more use to whoever asked than who would have to approve it.
  const pointless = await liveRequestRefusal(deps, {
    action: live.action,
    modelId: live.modelId,
    ...(actor.teamId ? { teamId: actor.teamId } : {}),
    nothing: 'nothing was sent',
  });
  if (pointless) return { ok: false, message: pointless, refusedBy: 'live-prechecks' };
  return approvalRefusal(deps, live, actor.teamId);
}

/** The access policy's verdict on a person running a command in a channel, as the gate's refusal. */
export async function policyRefusal(
  policy: AccessPolicy,
  where: { userId: string; teamId?: string; channelId: string; via?: string },
  spec: CommandSpec,
  params: Record<string, unknown>,
): Promise<OpFailure | null> {
  const verdict = await policy.check({ ...where, operation: spec.id, mutating: spec.mutating, params });
  if (verdict.allowed) return null;
  const operator = verdict.reason === 'not-operator';
  return {
    ok: false,
    message: verdict.message,
    refusal: {
      reason: verdict.reason,
      askUsers: verdict.askUsers,
      askGroups: verdict.askGroups,
      allowedChannels: verdict.allowedChannels,
    },
    refusedBy: operator ? 'operator' : 'channel',
    lost: operator
      ? 'is no longer an operator'
      : 'can no longer run it here: the bot no longer acts in this channel',
  };
}

function notApproved(action: 'start' | 'stop'): OpFailure {
  return {
    ok: false,
    message: `This live ${action} was not approved (as a request, or as a schedule), so nothing was sent.`,
    refusedBy: 'approval',
  };
}

/**
 * The approval stands: a request whose approval has just won (executing), or a schedule approved once,
 * under the rule that decides its model now (the service may have said since that the model is elsewhere,
 * or the configuration changed), by someone that rule still allows.
 */
async function approvalRefusal(
  deps: PermissionDeps,
  live: { action: 'start' | 'stop'; modelId: string; approval: LiveApproval },
  teamId: string | undefined,
): Promise<OpFailure | null> {
  const { approval, modelId } = live;
  if (approval.kind === 'unknown') return notApproved(live.action);
  if (approval.kind === 'request')
    return approval.request.status === 'executing' ? null : notApproved(live.action);
  const s = approval.schedule;
  if (s.status !== 'active' || !s.statusBy) return notApproved(live.action);
  const now = await deps.approvers.route(modelId, teamId);
  if (!deps.approvers.same(now, s))
    return {
      ok: false,
      message: `Who decides live starts and stops of model ${modelId} changed since this schedule was approved (now ${
        now.approversWorkspace
          ? `the approvers for workspace ${workspaceLabel(now.approversWorkspace)}`
          : now.approversStrictest
            ? 'only someone who approves for the bot and for every workspace with approvers of its own'
            : "the bot's approvers"
      }), so nothing was sent: it waits for their approval again.`,
      refusedBy: 'approval',
    };
  const stillMay = await deps.approvers.refusal(s, {
    requesterId: s.ownerId,
    userId: s.statusBy,
    approving: true,
  });
  if (stillMay)
    return {
      ok: false,
      message: `The approver who approved this schedule no longer decides live starts and stops of model ${modelId}, so nothing was sent: it waits for an approval again.`,
      refusedBy: 'approval',
    };
  return null;
}

import type { webApi } from '@slack/bolt';
import type { ServiceClient } from '../../api/index.js';
import type { Config } from '../../config.js';
import { startExpirySweeper } from '../../core/approval-sweeper.js';
import { type Approvals, createApprovals, type DecisionOutcome } from '../../core/approvals.js';
import { channelDefaultsAsArgs } from '../../core/channel-defaults.js';
import { type AccessPolicy, createPolicy } from '../../core/policy.js';
import type { Logger } from '../../log.js';
import type { ApprovalRequest, Store } from '../../store/index.js';
import type { BotHooks } from '../deps.js';
import { alreadyDecidedText, approvalMessage, askWhom, requesterNotice } from '../views/approvals.js';
import { handleGovernanceCommand } from './commands.js';
import { fileLiveRequest } from './live-requests.js';
import { recordOutcome } from './outcome-audit.js';

export interface GovernanceOptions {
  config: Config;
  logger: Logger;
  service: ServiceClient;
  store: Store;
  now: () => Date;
  /** The bot's Web API client; read when needed, because the app is created after its hooks. */
  slack: () => webApi.WebClient;
  /** How often expired requests are swept (default 30 s). */
  sweepIntervalMs?: number;
}

/**
 * Everything the store makes possible on the Slack side: approvals of live start/stop, the access
 * policy, channel defaults and the audit log. `hooks` plug into the command path; the approval
 * buttons (src/slack/actions/approvals.ts) use the rest.
 */
export interface Governance {
  readonly store: Store;
  readonly approvals: Approvals;
  readonly policy: AccessPolicy;
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly hooks: BotHooks;
  slack(): webApi.WebClient;
  /** Rewrites a request's message for its current state (chat.update; buttons follow the state). */
  showRequest(r: ApprovalRequest): Promise<void>;
  /** Tells the requester in the request's thread what happened. */
  tellRequester(r: ApprovalRequest): Promise<void>;
  /** Shows a decision's result: the message and the requester for a winner, `tell` (ephemeral) otherwise. */
  present(outcome: DecisionOutcome, tell: (text: string) => Promise<void>): Promise<void>;
  /** Expires due requests now, updating their messages and telling their requesters. */
  expireDue(): Promise<ApprovalRequest[]>;
  /** After the bot is up: applies expiry missed while it was down, marks interrupted executions, starts sweeping. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createGovernance(o: GovernanceOptions): Governance {
  const { config, logger, store } = o;
  const log = logger.child({ part: 'governance' });
  const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));
  const expandGroup = async (groupId: string): Promise<string[]> => {
    const res = await o.slack().usergroups.users.list({ usergroup: groupId });
    return res.users ?? [];
  };
  const onGroupError = (groupId: string, err: unknown) =>
    log.warn(
      { groupId, err: errText(err) },
      'usergroups.users.list failed; treating the group as empty for now',
    );

  const approvals = createApprovals({
    store,
    client: o.service,
    now: o.now,
    expandGroup,
    onGroupError,
    config: {
      approvers: config.approvals.approvers,
      allowSelfApproval: config.approvals.allowSelfApproval,
      ttlMs: config.approvals.ttlMs,
    },
  });
  const policy = createPolicy({
    store,
    now: o.now,
    expandGroup,
    onGroupError,
    config: { operators: config.policy.operators, allowedChannels: config.policy.allowedChannels },
  });

  let sweeper: { stop(): Promise<void> } | undefined;
  const announceExpired = async (expired: ApprovalRequest[]) => {
    for (const r of expired) {
      await gov.showRequest(r);
      await gov.tellRequester(r);
    }
  };

  const gov: Governance = {
    store,
    approvals,
    policy,
    config,
    logger: log,
    now: o.now,
    slack: o.slack,
    hooks: {},
    async showRequest(r) {
      if (!r.messageTs) return;
      try {
        await o
          .slack()
          .chat.update({ channel: r.approvalsChannelId, ts: r.messageTs, ...approvalMessage(r) });
      } catch (e) {
        log.error({ requestId: r.id, err: errText(e) }, 'could not update the request message');
      }
    },
    async tellRequester(r) {
      if (!r.messageTs) return;
      try {
        await o.slack().chat.postMessage({
          channel: r.approvalsChannelId,
          thread_ts: r.messageTs,
          text: requesterNotice(r),
        });
      } catch (e) {
        log.error({ requestId: r.id, err: errText(e) }, 'could not tell the requester');
      }
    },
    async present(outcome, tell) {
      switch (outcome.kind) {
        case 'not-found':
          return tell('This request is not known to this bot; nothing changed.');
        case 'not-approver':
          return tell(
            `You are not an approver for starting or stopping live models, so nothing changed. Ask ${askWhom(outcome.approvers)}.`,
          );
        case 'self-approval':
          return tell(
            `You filed this request, so you cannot approve it yourself; nothing changed. Ask another approver: ${askWhom(approvals.approverIds)}.`,
          );
        case 'expired':
          if (outcome.expiredNow) await announceExpired([outcome.request]);
          return tell(alreadyDecidedText(outcome.request));
        case 'already-decided':
          return tell(alreadyDecidedText(outcome.request));
        case 'not-retryable':
          return tell(`This request cannot be retried (it is ${outcome.request.status}); nothing changed.`);
        default:
          await gov.showRequest(outcome.request);
          await gov.tellRequester(outcome.request);
      }
    },
    async expireDue() {
      const expired = await approvals.expireDue();
      await announceExpired(expired);
      return expired;
    },
    async start() {
      const { expired, interrupted } = await approvals.recoverAfterRestart();
      if (expired.length || interrupted.length) {
        log.info(
          { expired: expired.length, interrupted: interrupted.length },
          'approval requests recovered at start-up',
        );
      }
      for (const r of [...expired, ...interrupted]) {
        await gov.showRequest(r);
        await gov.tellRequester(r);
      }
      sweeper = startExpirySweeper(approvals, {
        intervalMs: o.sweepIntervalMs,
        onExpired: announceExpired,
        onError: (err) => log.error({ err: errText(err) }, 'expiry sweep failed'),
      });
    },
    async stop() {
      await sweeper?.stop();
      sweeper = undefined;
    },
  };

  Object.assign(gov.hooks, {
    fileLiveRequest: (req) => fileLiveRequest(gov, req),
    authorize: async ({ command, spec, parsed }) => {
      const verdict = await policy.check({
        userId: command.user_id,
        teamId: command.team_id,
        channelId: command.channel_id,
        operation: spec.id,
        mutating: spec.mutating,
        params: parsed ? { ...parsed } : { text: command.text },
      });
      if (verdict.allowed) return verdict;
      const detailMrkdwn =
        verdict.reason === 'channel-not-allowed'
          ? `Allowed channels: ${verdict.allowedChannels.map((c) => `<#${c}>`).join(', ')}.`
          : `Operators: ${askWhom({ users: verdict.askUsers, groups: verdict.askGroups })}.`;
      return { allowed: false, message: verdict.message, detailMrkdwn };
    },
    channelDefaults: async (channelId) => channelDefaultsAsArgs(await store.getChannelDefaults(channelId)),
    recordOutcome: (r) => recordOutcome(gov, r),
    governanceCommand: (req) => handleGovernanceCommand(gov, req),
  } satisfies BotHooks);
  return gov;
}

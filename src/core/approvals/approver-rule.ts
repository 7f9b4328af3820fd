import type { ApprovalAction, ModelDoubt, Store } from '../../store/index.js';
import type { Now } from '../clock.js';
import { type ExpandGroup, Membership } from '../principals.js';
import { type Deciders, EveryRule } from './deciders.js';
import { modelDoubtText } from './rules.js';

/**
 * Who decides a live start or stop of a model, as a request and a schedule keep it: the approvers of the
 * service workspace that holds the model (`approversWorkspace`), the strictest rule when the bot cannot
 * place the model and workspaces have approvers of their own (`approversStrictest`), else the bot's.
 */
export interface ApproverRoute {
  approversWorkspace: { id: string; name: string | null } | null;
  approversStrictest: boolean;
  /** What the bot could not vouch for in the model; null: the service said where it is. */
  modelDoubt: ModelDoubt | null;
}

/** What decides who approves: a route as kept (a request's, a schedule's). */
export type RuleOf = Pick<ApproverRoute, 'approversWorkspace' | 'approversStrictest'>;

/** Why someone may not decide: not one of the rule's approvers, or the requester approving their own. */
export type DeciderRefusal = 'not-approver' | 'self-approval';

export interface ApproverRuleConfig {
  /** Slack user IDs (U…/W…) and user-group IDs (S…): the bot's approvers. */
  approvers: readonly string[];
  /** Approvers of a service workspace, by its ID, instead of `approvers`. */
  byWorkspace?: Readonly<Record<string, readonly string[]>>;
  allowSelfApproval?: boolean;
  groupCacheMs?: number;
}

export interface ApproverRuleDeps {
  store: Pick<Store, 'getCatalogEntry'>;
  config: ApproverRuleConfig;
  expandGroup: ExpandGroup;
  now?: Now;
  onGroupError?: (groupId: string, err: unknown) => void;
}

/**
 * THE ONE RULE of who decides a live start or stop of a model, for a request and a schedule alike: which
 * approvers (chosen from the service's word about the model's workspace, never from what was asked), and
 * the rules about people (only they decide; nobody approves their own unless self-approval is on).
 */
export class ApproverRule {
  private readonly approvers: Membership;
  private readonly byWorkspace: ReadonlyMap<string, Membership>;

  constructor(private readonly deps: ApproverRuleDeps) {
    const members = (ids: readonly string[]) =>
      new Membership(ids, deps.expandGroup, {
        cacheMs: deps.config.groupCacheMs,
        now: deps.now,
        onGroupError: deps.onGroupError,
      });
    this.approvers = members(deps.config.approvers);
    this.byWorkspace = new Map(
      Object.entries(deps.config.byWorkspace ?? {}).map(([workspace, ids]) => [workspace, members(ids)]),
    );
  }

  /** Whether anyone at all is named to decide (the bot's approvers or a workspace's). */
  get anyone(): boolean {
    return !this.approvers.isEmpty || this.byWorkspace.size > 0;
  }

  get allowSelfApproval(): boolean {
    return this.deps.config.allowSelfApproval === true;
  }

  /** The bot's approvers, for "ask one of …" where no model is concerned. */
  get botApproverIds(): { users: string[]; groups: string[] } {
    return { users: [...this.approvers.users], groups: [...this.approvers.groups] };
  }

  /** One of the bot's approvers (TSAI_APPROVERS): they read the audit log and every pending request. */
  isBotApprover(userId: string): Promise<boolean> {
    return this.approvers.has(userId);
  }

  /**
   * The approvers a route names: its workspace's (the bot's, when that workspace's rule was removed since),
   * everyone every rule allows for the strictest, else the bot's, as configured when they decide.
   */
  deciders(rule: RuleOf): Deciders {
    const workspace = rule.approversWorkspace?.id;
    if (workspace) return this.byWorkspace.get(workspace) ?? this.approvers;
    if (rule.approversStrictest) return new EveryRule([this.approvers, ...this.byWorkspace.values()]);
    return this.approvers;
  }

  /** The IDs of the approvers a route names, for "ask one of …". */
  approverIdsOf(rule: RuleOf): { users: string[]; groups: string[] } {
    const m = this.deciders(rule);
    return { users: [...m.users], groups: [...m.groups] };
  }

  mayDecide(rule: RuleOf, userId: string): Promise<boolean> {
    return this.deciders(rule).has(userId);
  }

  /** Why `userId` may not take this decision on what `requesterId` asked; null when they may. */
  async refusal(
    rule: RuleOf,
    o: { requesterId: string; userId: string; approving: boolean },
  ): Promise<DeciderRefusal | null> {
    if (!(await this.mayDecide(rule, o.userId))) return 'not-approver';
    if (o.approving && o.userId === o.requesterId && !this.allowSelfApproval) return 'self-approval';
    return null;
  }

  /**
   * The route of a model, from the service's word only: the workspace the service gave (a common-model
   * lookup just made), else the one the team's catalog recorded from the service's answers (a lookup, a
   * move, a flow that created the model). A workspace a command merely named never counts; the name is
   * the catalog's, for the card.
   */
  async route(
    modelId: string,
    teamId: string | undefined,
    lookup: { seen: boolean; serviceWorkspace?: string } = { seen: false },
  ): Promise<ApproverRoute> {
    const store = this.deps.store;
    const entry = teamId ? await store.getCatalogEntry(teamId, 'model', modelId) : null;
    const vouched = entry && entry.source !== 'command' ? entry : null;
    const workspace = lookup.serviceWorkspace ?? vouched?.workspaceId ?? undefined;
    if (!workspace) {
      const doubt: ModelDoubt = lookup.seen || vouched ? 'no-workspace' : 'unseen';
      return { approversWorkspace: null, approversStrictest: this.byWorkspace.size > 0, modelDoubt: doubt };
    }
    if (!this.byWorkspace.has(workspace))
      return { approversWorkspace: null, approversStrictest: false, modelDoubt: null };
    const name = teamId ? (await store.getCatalogEntry(teamId, 'workspace', workspace))?.name : undefined;
    return {
      approversWorkspace: { id: workspace, name: name ?? null },
      approversStrictest: false,
      modelDoubt: null,
    };
  }

  /** Whether two routes name the same approvers. */
  same(a: RuleOf, b: RuleOf): boolean {
    return (
      (a.approversWorkspace?.id ?? null) === (b.approversWorkspace?.id ?? null) &&
      a.approversStrictest === b.approversStrictest
    );
  }

  /** Why nobody could decide a live start or stop under `route`, in words; undefined when someone could. */
  nobodyCouldApprove(
    action: ApprovalAction,
    modelId: string,
    route: ApproverRoute,
    what: 'request' | 'schedule' = 'request',
  ): string | undefined {
    if (!this.deciders(route).isEmpty) return undefined;
    const done = action === 'start' ? 'started' : 'stopped';
    return route.approversStrictest
      ? `Nobody could approve this ${what}. ${modelDoubtText({ modelId, modelDoubt: route.modelDoubt })} So it would need an approver who approves for the bot (TSAI_APPROVERS) and for every workspace with its own approvers (TSAI_WORKSPACE_APPROVERS), and nobody is named in all of them. Nothing was ${done}. Name the model's assessment instead, so that the service says where the model is: \`/tsai live ${action} assessment=<assessment ID>\`.`
      : `Nobody could approve this ${what}: model ${modelId} is not in a workspace with its own approvers (TSAI_WORKSPACE_APPROVERS), and the bot has none (TSAI_APPROVERS). Nothing was ${done}.`;
  }
}

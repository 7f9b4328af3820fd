import type { Store } from '../../store/index.js';
import { type Attributes, inSpan } from '../../tracing/trace.js';
import type { ApproverRule } from '../approvals/approver-rule.js';
import type { CommandSpec } from '../grammar/commands.js';
import type { Actor, Operation } from '../operations/operation.js';
import type { OpFailure } from '../outcome.js';
import type { AccessPolicy } from '../policy.js';
import { adminRefusal, type TenantInstall } from './admin.js';
import {
  authenticate,
  type Principal,
  refusedFor,
  type SlackStanding,
  standingRefusal,
  type Tenancy,
} from './authenticate.js';
import { maskValues } from './mask.js';
import { needsIdentity } from './needs.js';
import { assertPermissions, policyRefusal } from './permissions.js';
import { getResource, type Resource } from './resource.js';

/** What a span of the gate says of its verdict: passed, or refused and by which guarantee. */
function verdictNotes(failure: OpFailure | null): Attributes {
  if (!failure) return { 'gate.outcome': 'passed' };
  return { 'gate.outcome': 'refused', 'gate.refused_by': failure.refusedBy ?? failure.refusal?.reason };
}

export interface GateDeps {
  store: Pick<
    Store,
    'getTrackedFlow' | 'getApproval' | 'getSchedule' | 'getCatalogEntry' | 'listTrackedFlows'
  >;
  policy: AccessPolicy;
  approvers: ApproverRule;
  tenancy: Tenancy;
  /** The person's standing in Slack; absent (no Slack to ask): nobody is refused for it. */
  standing?: SlackStanding;
}

/** What passed the gate: the operation and its asker with their texts masked, for whom, on what. */
export interface Passage {
  actor: Actor;
  op: Operation;
  principal: Principal;
  resource: Resource;
  /** Something typed was masked: the person is told. */
  masked: boolean;
}

export type GateVerdict = { ok: true; passage: Passage } | { ok: false; failure: OpFailure };

/**
 * THE GATE every operation passes, whichever surface asked (core/gate/surfaces.ts), as the person it acts
 * for, at the moment it acts: a declared pipeline of small steps, with no exemption by operation kind.
 *
 * 1. mask (`mask.ts`): every text of the operation, and what was asked, with token-like values replaced;
 * 2. authenticate (`authenticate.ts`): the person's Slack standing, their tenant, their service identity;
 * 3. getResource (`resource.ts`): what it touches, within their Slack team;
 * 4. assertPermissions (`permissions.ts`): the access policy, a live flow's approval and pre-checks;
 * 5. the identity's own refusals (connect first, a token turned down), told after the permissions so that
 *    nobody connects only to be refused for something else.
 *
 * Each refusal names the guarantee that refused it (`guarantees.ts`).
 */
export class Gate {
  constructor(private readonly deps: GateDeps) {}

  /** In the request's trace, a `gate` span says which guarantee refused, if one did (never what was typed). */
  pass(asked: Actor, requested: Operation): Promise<GateVerdict> {
    return inSpan('gate', { 'tsai.operation': requested.kind }, async (span) => {
      const verdict = await this.passing(asked, requested);
      span.set(verdictNotes(verdict.ok ? null : verdict.failure));
      return verdict;
    });
  }

  private async passing(asked: Actor, requested: Operation): Promise<GateVerdict> {
    const op = maskValues(requested);
    const asker = maskValues(asked.asked);
    const actor: Actor = { ...asked, asked: asker.value };
    const person = { teamId: actor.teamId ?? '', userId: actor.userId };
    const who = await authenticate(this.deps, person, { identity: false });
    if (!who.ok) return who;
    const resource = await getResource(this.deps.store, actor, op.value, {
      sharedService: this.deps.tenancy.sharedService,
    });
    const refused = await assertPermissions(this.deps, actor, op.value, resource);
    if (refused) return { ok: false, failure: refused };
    let principal = who.principal;
    if (needsIdentity(op.value)) {
      const identity = await principal.tenant.identity.forPerson(person);
      if (!identity.ok) return { ok: false, failure: { ...identity.refusal, refusedBy: 'identity' } };
      principal = { ...principal, identity };
    }
    return {
      ok: true,
      passage: { actor, op: op.value, principal, resource, masked: op.masked || asker.masked },
    };
  }

  /**
   * A tenant's own service account, about to be changed (its form opened, or sent): the person's standing,
   * then that they are of the tenant and one of its admins, as Slack says now (`admin.ts`).
   */
  async tenantAdmin(actor: Actor, install: TenantInstall): Promise<OpFailure | null> {
    const person = { teamId: actor.teamId ?? '', userId: actor.userId };
    const { refusal } = await standingRefusal(this.deps, person);
    if (refusal) return refusal;
    const rights = await this.deps.standing?.rightsOf?.(person).catch(() => undefined);
    // Asked anew for the rights, Slack's answer is fresher than the standing held for a minute.
    if (rights?.deleted) return refusedFor('deactivated');
    return adminRefusal(person.teamId, install, actor.userId, rights);
  }

  /**
   * A command before its operation is known (its form is about to open): the person's standing and the
   * access policy, so that nobody fills a form in only to be refused at the end. `pass` asks again.
   */
  command(actor: Actor, spec: CommandSpec, params: Record<string, unknown>): Promise<OpFailure | null> {
    return inSpan('gate', { 'tsai.command': spec.id, 'gate.check': 'before-form' }, async (span) => {
      const refused = await this.commandRefusal(actor, spec, params);
      span.set(verdictNotes(refused));
      return refused;
    });
  }

  private async commandRefusal(
    actor: Actor,
    spec: CommandSpec,
    params: Record<string, unknown>,
  ): Promise<OpFailure | null> {
    const { refusal } = await standingRefusal(this.deps, {
      teamId: actor.teamId ?? '',
      userId: actor.userId,
    });
    if (refusal) return refusal;
    return policyRefusal(
      this.deps.policy,
      {
        userId: actor.userId,
        ...(actor.teamId ? { teamId: actor.teamId } : {}),
        channelId: actor.channelId,
        via: actor.surface,
      },
      spec,
      params,
    );
  }
}

import { randomUUID } from 'node:crypto';
import { ServiceError } from '../../api/errors.js';
import type { FlowResults, FlowView, ServiceCalls } from '../../api/index.js';
import { observeServiceCall } from '../../metrics/metrics.js';
import type { FlowAnnouncement, FlowKey, Store, TrackedFlow, TrackedFlowPatch } from '../../store/index.js';
import { carried, inSpan, keptTrace, traceParentNow } from '../../tracing/trace.js';
import { recordChange } from '../catalog/record.js';
import type { Actor, Operation } from '../operations/operation.js';
import { requestParams } from '../operations/params.js';
import type { OpSuccess } from '../outcome.js';
import { Rounds } from '../rounds.js';
import { catalogOfOutputs, flowOutputs } from './outputs.js';
import { nextPollDelay, type PollSchedule } from './schedule.js';

/** How long a claimed flow is a replica's unless TSAI_TRACK_LEASE says otherwise. */
export const DEFAULT_LEASE_MS = 60_000;

/**
 * How long a flow's status and end wait for the surface to say where it announced the flow. The surface
 * posts the announcement after the service answered, and on a busy replica a short flow can end before
 * that post is recorded: shown then, the end would go nowhere (no message to update, no thread to reply
 * in) and the announcement would keep its first status for good. Past this wait the surface is taken to
 * have failed silently, and the end is told by direct message.
 */
export const ANNOUNCE_WAIT_MS = 60_000;

/** How a surface shows a followed flow; the tracker knows nothing of Slack. */
export interface FlowNotifier {
  /** Shows the flow's current state where it was announced (or on its approval request). */
  show(flow: TrackedFlow, now: number): Promise<NotifyResult>;
  /** The flow ended: tells its requester once, with the results. */
  notify(flow: TrackedFlow, now: number): Promise<NotifyResult>;
}

export type NotifyResult =
  /** Shown or sent. `announcement`: where it is now shown (a response_url counts its uses). */
  | { kind: 'done'; announcement?: FlowAnnouncement }
  /** Rate-limited: this flow's message is retried then, the others go on. */
  | { kind: 'later'; notBefore: number }
  /** Nothing can show it now, and nothing should be retried. */
  | { kind: 'skipped' };

export interface TrackerLog {
  debug(o: object, msg: string): void;
  info(o: object, msg: string): void;
  warn(o: object, msg: string): void;
  error(o: object, msg: string): void;
}

export interface TrackerDeps {
  store: Store;
  service: Pick<ServiceCalls, 'getFlow'>;
  /**
   * Whose identity reads a flow back (the shared one, else the token of the person who started it);
   * undefined: nobody's is available. Absent: always `service`.
   */
  serviceFor?: (flow: TrackedFlow) => Promise<Pick<ServiceCalls, 'getFlow'> | undefined>;
  schedule: PollSchedule;
  log: TrackerLog;
  /**
   * The machine's clock (ms). Not the bot's business clock: leases are shared with other replicas, and the
   * time between reads is real time.
   */
  clock?: () => number;
  random?: () => number;
  /** How long a claimed flow is this replica's (a read, a Slack update and a thread reply fit well inside). */
  leaseMs?: number;
  /** Flows claimed per round. */
  batch?: number;
  /** How often the store is asked for due flows. */
  tickMs?: number;
  /** How long telling waits for the announcement (`ANNOUNCE_WAIT_MS`). */
  announceWaitMs?: number;
}

/** What the runner tells the tracker about a flow it just created. */
export interface NewFlow {
  actor: Actor;
  op: Operation;
  outcome: OpSuccess & { flow: { id: string; status: string } };
  flowType: string;
}

/** The row's `request`: what was sent and what the bot first said about it, for every later rendering. */
export interface TrackedRequest {
  operation: Record<string, unknown>;
  outcome: OpSuccess;
}

/**
 * Follows every flow the bot creates until it ends: reads it back with the service client, lets the
 * surface show each new status in place, and has the requester told once at the end. The state is a row
 * in the store, so it survives restarts; replicas sharing the store lease due rows, so each flow is read
 * by one replica at a time, and a crashed replica's flows are taken over when its leases run out.
 */
export class FlowTracker {
  /** This replica's name on its leases. */
  readonly owner = `tracker-${randomUUID()}`;
  private readonly clock: () => number;
  private notifier: FlowNotifier | undefined;
  private readonly rounds: Rounds;

  constructor(private readonly deps: TrackerDeps) {
    this.clock = deps.clock ?? Date.now;
    this.rounds = new Rounds({
      tick: () => this.tick(),
      tickMs: deps.tickMs ?? 1_000,
      batch: deps.batch ?? 50,
      failed: (e) =>
        deps.log.error({ err: e instanceof Error ? e.message : String(e) }, 'flow tracking round failed'),
    });
  }

  private get leaseMs(): number {
    return this.deps.leaseMs ?? DEFAULT_LEASE_MS;
  }

  /** Starts following a flow the runner just created (its announcement comes later, from the surface). */
  async follow(n: NewFlow): Promise<TrackedFlow> {
    const now = this.clock();
    let requesterId = n.actor.userId;
    let channelId = n.actor.channelId;
    let announcement: FlowAnnouncement | undefined;
    let approvalId: string | undefined;
    if (n.op.kind === 'live-model') {
      // An approved live start/stop is shown on its request and told to its requester, not the approver.
      approvalId = n.op.approvalId;
      const approval = await this.deps.store.getApproval(n.op.approvalId);
      if (approval) {
        requesterId = approval.requesterId;
        channelId = approval.originChannelId;
        if (approval.messageTs)
          announcement = { kind: 'message', channelId: approval.approvalsChannelId, ts: approval.messageTs };
      }
    }
    const request: TrackedRequest = {
      operation: requestParams(n.op),
      outcome: n.outcome,
    };
    const row = await this.deps.store.trackFlow({
      flowId: n.outcome.flow.id,
      flowType: n.flowType,
      ...(n.actor.teamId ? { teamId: n.actor.teamId } : {}),
      channelId,
      requesterId,
      origin: n.actor.via,
      asked: n.actor.asked,
      request: request as unknown as Record<string, unknown>,
      ...(approvalId ? { approvalId } : {}),
      status: n.outcome.flow.status,
      createdAt: now,
      nextPollAt: now + nextPollDelay(0, this.deps.schedule, { random: this.deps.random }),
      // Its reads are traces of their own linked to the request, and its end notice joins the request's.
      ...traceParentNow(),
    });
    return announcement ? ((await this.deps.store.setFlowAnnouncement(row, announcement)) ?? row) : row;
  }

  /**
   * Where the surface announced the flow, so that its status can be updated in place: the flow of that
   * tenant (another tenant's service may have handed out the same ID).
   */
  async announced(flow: FlowKey, announcement: FlowAnnouncement): Promise<void> {
    await this.deps.store.setFlowAnnouncement(flow, announcement);
  }

  /** Begins the rounds; `notifier` shows what the rounds find. */
  start(notifier: FlowNotifier): void {
    this.notifier = notifier;
    this.rounds.start();
  }

  /** Stops the rounds, lets the one in progress finish, and gives back every lease. */
  async stop(): Promise<void> {
    await this.rounds.stop();
    await this.deps.store.releaseFlowLeases(this.owner);
  }

  /** One round: lease the due flows and take each one step further. Returns how many were leased. */
  async tick(): Promise<number> {
    const flows = await this.deps.store.claimDueFlows({
      owner: this.owner,
      now: this.clock(),
      leaseMs: this.leaseMs,
      limit: this.deps.batch ?? 50,
    });
    await Promise.all(
      flows.map((f) =>
        inSpan(
          'flow.follow',
          { 'flow.id': f.flowId, 'flow.type': f.flowType, 'slack.team.id': f.teamId ?? undefined },
          () => this.step(f),
          { root: true, links: [keptTrace(f.traceParent)] },
        ),
      ),
    );
    return flows.length;
  }

  private async step(leased: TrackedFlow): Promise<void> {
    const notifier = this.notifier;
    if (!notifier) return;
    const now = this.clock();
    const { schedule, random } = this.deps;
    const patch: TrackedFlowPatch = { release: true };
    let flow = leased;
    const apply = (p: TrackedFlowPatch) => {
      Object.assign(patch, p);
      flow = { ...flow, ...(p as Partial<TrackedFlow>) };
    };
    let next = Number.POSITIVE_INFINITY;
    const readAgain = (retryAfterMs?: number) => {
      next = Math.min(
        next,
        now + nextPollDelay(flow.polls, schedule, { ...(retryAfterMs ? { retryAfterMs } : {}), random }),
      );
    };

    if (!flow.endReason) {
      // At the longest age the flow is still read once more, so that its end notice tells the status it
      // had when the bot stopped following it: the last read before may be a status long past (reads
      // spaced to the longest interval, or a busy machine late to the first one).
      const lastRead = now - flow.createdAt >= schedule.maxAgeMs;
      apply({ polls: flow.polls + 1 });
      const from = this.clock();
      const read = await this.read(flow);
      // Who read which flow when: the proof that replicas never read one flow at the same moment.
      this.deps.log.debug(
        { flowId: flow.flowId, owner: this.owner, from, to: this.clock() },
        'read a followed flow',
      );
      if (read.kind === 'unsupported') apply({ endReason: 'unsupported' });
      else if (read.kind === 'error') {
        const e = read.error;
        if (e.status === 401 || e.status === 403)
          apply({ endReason: 'unauthorized', failure: e.userMessage });
        else if (e.status === 404) apply({ endReason: 'not-found', failure: e.userMessage });
        else {
          this.deps.log.warn(
            { flowId: flow.flowId, err: e.userMessage, kind: e.kind },
            'could not read a followed flow; reading again later',
          );
          readAgain(e.retryAfterMs);
        }
      } else {
        const v = read.view;
        if (v.status !== flow.status) apply({ status: v.status, statusChangedAt: now });
        if (v.ended) {
          apply({
            endReason: 'ended',
            result: v.results as unknown as Record<string, unknown>,
            failure: v.message ?? null,
          });
          if (v.phase === 'completed') await this.learn(flow, v.results);
        } else readAgain();
      }
      if (lastRead && !flow.endReason) apply({ endReason: 'max-age' });
    }

    const wanted = shownKey(flow);
    const unannounced = this.awaitingAnnouncement(flow, now);
    if (unannounced) next = Math.min(next, now + schedule.firstMs);
    // The read may have outlasted the lease, and another replica may have taken the flow meanwhile: what
    // is shown and told is done only by a holder that still has a whole lease ahead, so the end notice
    // cannot be sent by two replicas, however long one of them took to read.
    const telling =
      !unannounced && (flow.shownStatus !== wanted || (flow.endReason !== null && flow.notifiedAt === null));
    if (telling && !(await this.stillHeld(flow))) return;
    if (telling && flow.announcement === null && flow.origin !== 'approval' && flow.shownStatus === null)
      this.deps.log.warn(
        { flowId: flow.flowId, waitedMs: now - flow.createdAt },
        'no word from the surface on where a followed flow was announced; telling its end without it',
      );
    if (telling && flow.shownStatus !== wanted) {
      if (flow.showNotBefore !== null && now < flow.showNotBefore) next = Math.min(next, flow.showNotBefore);
      else {
        const r = await this.safely(() => notifier.show(flow, now), flow, 'show');
        if (r.kind === 'later') {
          apply({ showNotBefore: r.notBefore });
          next = Math.min(next, r.notBefore);
        } else {
          apply({
            shownStatus: wanted,
            showNotBefore: null,
            ...(r.kind === 'done' && r.announcement ? { announcement: r.announcement } : {}),
          });
        }
      }
    }

    const shownFinal = flow.shownStatus === wanted;
    if (telling && flow.endReason && shownFinal && flow.notifiedAt === null) {
      // The end is the answer to the request: told in its trace, linked to this round.
      const round = carried();
      const told = flow;
      const r = await inSpan(
        'flow.end',
        { 'flow.id': told.flowId, 'flow.type': told.flowType, 'flow.status': told.status },
        () => this.safely(() => notifier.notify(told, now), told, 'notify'),
        { parent: keptTrace(told.traceParent), links: [round] },
      );
      if (r.kind === 'later') next = Math.min(next, r.notBefore);
      else apply({ notifiedAt: now });
    }
    if (flow.endReason && shownFinal && flow.notifiedAt !== null) apply({ finishedAt: now });
    else apply({ nextPollAt: Number.isFinite(next) ? next : now + schedule.firstMs });

    const written = await this.deps.store.updateTrackedFlow(flow, this.owner, patch);
    if (!written)
      this.deps.log.warn(
        { flowId: flow.flowId },
        'lost the lease on a followed flow before writing; another replica has it',
      );
    else if (patch.finishedAt)
      this.deps.log.info(
        { flowId: flow.flowId, status: flow.status, reason: flow.endReason, polls: flow.polls },
        'stopped following a flow',
      );
  }

  /** The surface has not yet said where it announced the flow, and may still (see `ANNOUNCE_WAIT_MS`). */
  private awaitingAnnouncement(flow: TrackedFlow, now: number): boolean {
    // A live start or stop is shown on its approval request, which exists before the flow does.
    if (flow.announcement !== null || flow.origin === 'approval') return false;
    return now - flow.createdAt < (this.deps.announceWaitMs ?? ANNOUNCE_WAIT_MS);
  }

  /** Extends this replica's lease on a flow; false when another replica holds it now. */
  private async stillHeld(flow: FlowKey): Promise<boolean> {
    const held = await this.deps.store.updateTrackedFlow(flow, this.owner, {
      leaseUntil: this.clock() + this.leaseMs,
    });
    if (!held)
      this.deps.log.warn(
        { flowId: flow.flowId, team: flow.teamId },
        'lost the lease on a followed flow before showing it; another replica has it',
      );
    return held !== null;
  }

  /** What a completed flow yields joins the catalog of its team (and what it removed leaves it). */
  private async learn(flow: TrackedFlow, results: FlowResults): Promise<void> {
    const yielded = flowOutputs({ result: { ...results }, request: flow.request });
    if (yielded.undeclared.length)
      this.deps.log.warn(
        { flowId: flow.flowId, undeclared: yielded.undeclared },
        'the operation read outputs its registry entry does not declare; they are not shown or handed on',
      );
    if (!flow.teamId) return;
    try {
      await recordChange(this.deps.store, {
        ...catalogOfOutputs(yielded),
        teamId: flow.teamId,
        now: this.clock,
      });
    } catch (e) {
      this.deps.log.error(
        { flowId: flow.flowId, err: e instanceof Error ? e.message : String(e) },
        'could not record what a flow produced',
      );
    }
  }

  private async read(
    flow: TrackedFlow,
  ): Promise<
    { kind: 'view'; view: FlowView } | { kind: 'unsupported' } | { kind: 'error'; error: ServiceError }
  > {
    const service = this.deps.serviceFor ? await this.deps.serviceFor(flow) : this.deps.service;
    if (!service) return { kind: 'error', error: NO_IDENTITY };
    const started = performance.now();
    const took = () => (performance.now() - started) / 1000;
    try {
      const got = await service.getFlow(flow.flowId);
      observeServiceCall('flow-read', 'ok', took());
      return got.supported ? { kind: 'view', view: got.view } : { kind: 'unsupported' };
    } catch (e) {
      observeServiceCall('flow-read', 'error', took());
      if (isServiceError(e)) return { kind: 'error', error: e };
      throw e;
    }
  }

  /** A surface that throws must not stop the round: the attempt counts as done, and is logged. */
  private async safely(
    f: () => Promise<NotifyResult>,
    flow: TrackedFlow,
    what: 'show' | 'notify',
  ): Promise<NotifyResult> {
    try {
      return await f();
    } catch (e) {
      this.deps.log.error(
        { flowId: flow.flowId, err: e instanceof Error ? e.message : String(e) },
        `could not ${what} a followed flow`,
      );
      return { kind: 'skipped' };
    }
  }
}

/** What the announcement should show: the status, and why following stopped when it did. */
export function shownKey(f: Pick<TrackedFlow, 'status' | 'endReason'>): string {
  return f.endReason ? `${f.status}|${f.endReason}` : f.status;
}

/** Nobody's identity can read the flow: no shared token, and its starter is no longer connected. */
const NO_IDENTITY = new ServiceError(
  'http',
  "The bot can no longer read this flow: it has no shared service identity, and the person who started the flow is not connected any more. Follow it in the service's Activity view.",
  { status: 401 },
);

function isServiceError(e: unknown): e is ServiceError {
  return e instanceof Error && e.name === 'ServiceError';
}

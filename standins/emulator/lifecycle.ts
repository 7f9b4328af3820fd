import { z } from 'zod';
import { describeIssues } from '../../src/wire/index.js';
import { flowTypeOf } from './flow-types.js';
import type { FlowDelays } from './flows.js';
import { type Rec, SEED } from './seed.js';
import type { Store } from './store.js';

/** Statuses after which a flow never changes again. */
export const ENDED = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

const statusWord = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_]{0,63}$/,
    'must be a status word such as COMPLETED, FAILED, CANCELLED, RUNNING or WAITING_FOR_DATA',
  );

/** Body of `POST /_emulator/flows/{id}/finish`; empty means "complete it normally". */
export const flowEnding = z.strictObject({
  status: statusWord.optional(),
  /** The reason shown with FAILED (a default is used when absent) or any other status. */
  message: z.string().optional(),
});
export type FlowEnding = z.infer<typeof flowEnding>;

/** Body of `POST /_emulator/flow-rules`: how flows created later, and matching, will go. */
export const flowRule = z.strictObject({
  /** Exact flow type to match (any when absent). */
  flowType: z.string().optional(),
  /** Regular expression tested against the flow's name (any when absent). */
  name: z.string().optional(),
  /** How many new flows the rule applies to, then it is spent (unlimited when absent). */
  count: z.number().int().positive().optional(),
  /**
   * COMPLETED, FAILED or CANCELLED: the flow runs and ends so at `completedAfterMs`. Any other status
   * (RUNNING, CREATED, WAITING_FOR_DATA…): the flow reaches it at `runningAfterMs` and stays there until
   * `POST /_emulator/flows/{id}/finish` ends it.
   */
  status: statusWord,
  message: z.string().optional(),
});
export type FlowRule = z.infer<typeof flowRule>;

interface LiveRule {
  id: number;
  spec: FlowRule;
  name: RegExp | undefined;
  remaining: number;
  hits: number;
}

const DEFAULT_FAILURE = "failed on request of the emulator's control API";

export type SetResult = { ok: true; flow: Rec } | { ok: false; status: 404 | 409; message: string };

/** How flows move from CREATED to their end: by the configured delays, by rules, or on request. */
export class FlowLifecycle {
  private readonly timers = new Map<string, Set<NodeJS.Timeout>>();
  private rules: LiveRule[] = [];
  private nextRuleId = 1;
  /** Where each flow that has not ended is going, when that is not simply COMPLETED. */
  private readonly endings = new Map<string, FlowEnding>();

  constructor(
    private readonly store: Store,
    public delays: FlowDelays,
  ) {}

  /** Schedules a new flow: the first live rule matching it decides where it goes, else it completes. */
  created(flow: Rec): void {
    const rule = this.takeRule(flow);
    const ending = { status: rule?.status ?? 'COMPLETED', message: rule?.message };
    if (ending.status !== 'COMPLETED' || ending.message !== undefined) this.endings.set(flow.id, ending);
    this.schedule(flow.id, ending);
  }

  /**
   * The endings planned for flows that have not ended yet, other than a plain COMPLETED: with the
   * records, what a restarted emulator needs to take every flow on to where it was going.
   */
  plannedEndings(): Record<string, FlowEnding> {
    return Object.fromEntries(this.endings);
  }

  /** After a restart: every flow that has not ended goes on, from now, to its planned ending. */
  resume(planned: Record<string, FlowEnding>): void {
    for (const flow of this.store.all('flows')) {
      if (ENDED.has(String(flow.status))) continue;
      const ending = planned[flow.id] ?? { status: 'COMPLETED' };
      if (planned[flow.id]) this.endings.set(flow.id, ending);
      this.schedule(flow.id, ending);
    }
  }

  private schedule(id: string, ending: FlowEnding): void {
    const target = ending.status ?? 'COMPLETED';
    if (target === 'CREATED') return;
    const { runningAfterMs, completedAfterMs } = this.delays;
    const interim = ENDED.has(target) ? 'RUNNING' : target;
    this.later(id, runningAfterMs, () => {
      if (this.store.get('flows', id)?.status === 'CREATED')
        this.store.update('flows', id, { status: interim });
    });
    if (!ENDED.has(target)) return;
    this.later(id, Math.max(completedAfterMs, runningAfterMs), () => {
      if (!ENDED.has(String(this.store.get('flows', id)?.status))) this.apply(id, target, ending.message);
    });
  }

  /**
   * Moves a flow to `ending.status` now (COMPLETED with its effects when absent), cancelling whatever was
   * scheduled for it. An ended flow is left alone: asking for its own status again is fine, any other is 409.
   */
  set(id: string, ending: FlowEnding): SetResult {
    const flow = this.store.get('flows', id);
    if (!flow) return { ok: false, status: 404, message: `flow ${id} not found` };
    const current = String(flow.status);
    if (ENDED.has(current)) {
      if (ending.status === undefined || ending.status === current) return { ok: true, flow };
      return { ok: false, status: 409, message: `flow ${id} already ended as ${current}` };
    }
    this.cancel(id);
    this.asCreatorOf(id, () => this.apply(id, ending.status ?? 'COMPLETED', ending.message));
    return { ok: true, flow: this.store.get('flows', id)! };
  }

  addRule(input: unknown): { ok: true; id: number } | { ok: false; message: string } {
    const r = flowRule.safeParse(input);
    if (!r.success) return { ok: false, message: describeIssues(r.error) };
    let name: RegExp | undefined;
    try {
      name = r.data.name === undefined ? undefined : new RegExp(r.data.name);
    } catch {
      return { ok: false, message: 'name: not a valid regular expression' };
    }
    const rule = { id: this.nextRuleId++, spec: r.data, name, remaining: r.data.count ?? Infinity, hits: 0 };
    this.rules.push(rule);
    return { ok: true, id: rule.id };
  }

  describeRules() {
    return this.rules.map((r) => ({
      id: r.id,
      ...r.spec,
      hits: r.hits,
      remaining: r.remaining === Infinity ? null : r.remaining,
    }));
  }

  clearRules(): void {
    this.rules = [];
  }

  /** Cancels every scheduled change and forgets the rules. */
  reset(): void {
    for (const set of this.timers.values()) for (const t of set) clearTimeout(t);
    this.timers.clear();
    this.rules = [];
    this.endings.clear();
  }

  private takeRule(flow: Rec): FlowRule | undefined {
    for (const r of this.rules) {
      if (r.remaining <= 0) continue;
      if (r.spec.flowType !== undefined && r.spec.flowType !== flow.flowType) continue;
      if (r.name && !r.name.test(String(flow.name ?? ''))) continue;
      r.remaining--;
      r.hits++;
      return r.spec;
    }
    return undefined;
  }

  private apply(id: string, status: string, message: string | undefined): void {
    const flow = this.store.get('flows', id);
    if (!flow) return;
    if (ENDED.has(status)) this.endings.delete(id);
    else this.endings.set(id, { status, message });
    if (status === 'COMPLETED') {
      let outcome: Record<string, unknown>;
      try {
        const type = flowTypeOf(flow.flowType);
        outcome = type
          ? type.complete(this.store, flow as Rec & { flowType: string })
          : { status: 'FAILED', message: `the emulator does not know flow type ${String(flow.flowType)}` };
      } catch (err) {
        // A bug in an effect must fail the flow visibly, never crash the emulator from a timer.
        outcome = { status: 'FAILED', message: `emulator error: ${(err as Error)?.message ?? String(err)}` };
      }
      this.store.update('flows', id, outcome);
      return;
    }
    const reason = message ?? (status === 'FAILED' ? DEFAULT_FAILURE : undefined);
    this.store.update('flows', id, { status, ...(reason !== undefined ? { message: reason } : {}) });
  }

  /** The service runs a flow on behalf of whoever created it: what the flow changes or makes is theirs. */
  private asCreatorOf(id: string, fn: () => void): void {
    const by = this.store.get('flows', id)?.createdBy;
    this.store.actingAs(typeof by === 'string' ? by : SEED.principalId, fn);
  }

  private later(id: string, ms: number, fn: () => void): void {
    const set = this.timers.get(id) ?? new Set();
    this.timers.set(id, set);
    const t = setTimeout(() => {
      set.delete(t);
      if (set.size === 0) this.timers.delete(id);
      this.asCreatorOf(id, fn);
    }, ms);
    t.unref();
    set.add(t);
  }

  private cancel(id: string): void {
    for (const t of this.timers.get(id) ?? []) clearTimeout(t);
    this.timers.delete(id);
  }
}

import { flowStillRunning, hasHome, markHome, readHome } from '../../core/home/read.js';
import type { ApprovalRequest, TrackedFlow } from '../../core/records.js';
import { errText } from '../../log.js';
import { groupMembers } from '../approvals/index.js';
import type { Bot } from '../bot.js';
import type { Change } from '../changes.js';
import { slackFailure } from '../slack-errors.js';
import { fallbackHomeView, HOME_FLOW_DAYS, HOME_SHOWN, type HomeData, homeView } from './views.js';

/** Someone whose Home to publish. */
export interface HomeViewer {
  teamId: string;
  userId: string;
}

/** What changed, and whose Homes show it. */
/** Whose Homes a change concerns (a flow's end: its Home waits until the store shows it ended). */
export type HomeChange = Change;

/**
 * Changes that come in a burst (a decision updates the request when it is won, again when its flow is
 * created, and tells the requester) are published once, this long after the first.
 */
export const HOME_DEBOUNCE_MS = 1_000;
/** Slack sends `app_home_opened` on every visit: visits this close together are published once. */
export const HOME_OPEN_DELAY_MS = 300;
/** Group members of the approvers are looked up at most this often. */
const GROUP_CACHE_MS = 60_000;
/** After Slack said the app has no Home tab, publishing rests this long. */
const NOT_ENABLED_PAUSE_MS = 10 * 60_000;
/** A flow's end is told before the tracker writes it: a Home built before that waits, this many times. */
const FLOW_END_WAITS = 5;

interface Pending {
  viewer: HomeViewer;
  timer: NodeJS.Timeout;
  at: number;
  flows: Set<string>;
  waits: number;
  /** Publishes Slack failed (5xx, no answer) in a row. */
  tries?: number;
}

/** A Home Slack failed to take (5xx, no answer) is tried this many times more, waiting longer each time. */
const UNAVAILABLE_RETRIES = 3;
const UNAVAILABLE_WAIT_MS = 2_000;

/**
 * Publishes people's Homes (`views.publish`), one at a time per person and debounced: asks that come
 * while one is pending join it, asks while one is being published make one more afterwards. It runs
 * where follow-ups run, so every decision, expiry and flow end on this replica reaches it.
 */
export class HomePublisher {
  private readonly pending = new Map<string, Pending>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Map<string, Pending>();
  /** The last hash Slack gave each Home, so that a publish built from older data cannot win a race. */
  private readonly hashes = new Map<string, string>();
  private readonly knownViewers = new Set<string>();
  /** Members of the approver groups, by the groups of one rule. */
  private readonly groupCache = new Map<string, { at: number; users: string[] }>();
  private pausedUntil = 0;
  private stopped = false;

  constructor(private readonly bot: Bot) {}

  /** Publish this person's Home after `delayMs` (joined with any publish already waiting). */
  request(viewer: HomeViewer, o: { delayMs?: number; hash?: string; flowEnded?: string } = {}): void {
    if (this.stopped) return;
    const key = keyOf(viewer);
    if (o.hash) this.hashes.set(key, o.hash);
    const delay = Math.max(0, o.delayMs ?? HOME_DEBOUNCE_MS);
    const at = Date.now() + delay;
    const p = this.pending.get(key);
    if (!p) {
      this.schedule(viewer, delay, new Set(o.flowEnded ? [o.flowEnded] : []), 0);
      return;
    }
    if (o.flowEnded) p.flows.add(o.flowEnded);
    if (at >= p.at) return;
    // Asked sooner than the one waiting (a visit during a change's debounce): publish at the sooner time.
    clearTimeout(p.timer);
    this.pending.delete(key);
    this.schedule(viewer, delay, p.flows, p.waits);
  }

  /** Something changed: the Homes of the people concerned (those who have one) are published again. */
  async changed(c: HomeChange): Promise<void> {
    if (this.stopped || !c.teamId) return;
    const teamId = c.teamId;
    const users = new Set<string>();
    for (const u of c.userIds ?? []) if (u) users.add(u);
    if (c.approvers) for (const u of await this.approverUsers(teamId, c.approvers)) users.add(u);
    for (const userId of users) {
      const viewer = { teamId, userId };
      if (await this.hasHome(viewer)) this.request(viewer, c.flowEnded ? { flowEnded: c.flowEnded } : {});
    }
  }

  /** Whether a publish is waiting or on its way. */
  get busy(): boolean {
    return this.pending.size > 0 || this.running.size > 0;
  }

  /** Drops what is waiting and lets what is being published finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    this.again.clear();
    await Promise.allSettled([...this.running.values()]);
  }

  private schedule(viewer: HomeViewer, delayMs: number, flows: Set<string>, waits: number, tries = 0): void {
    const key = keyOf(viewer);
    const old = this.pending.get(key);
    let waited = waits;
    if (old) {
      clearTimeout(old.timer);
      for (const f of old.flows) flows.add(f);
      waited = Math.max(waits, old.waits);
    }
    const timer = setTimeout(() => this.fire(key), delayMs);
    timer.unref();
    this.pending.set(key, { viewer, timer, at: Date.now() + delayMs, flows, waits: waited, tries });
  }

  private fire(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    if (this.running.has(key)) {
      const earlier = this.again.get(key);
      if (earlier) for (const f of earlier.flows) p.flows.add(f);
      this.again.set(key, p);
      return;
    }
    const run = this.publishOnce(p)
      .catch((e: unknown) =>
        this.bot.logger.warn({ user: p.viewer.userId, err: errText(e) }, 'could not publish a Home'),
      )
      .finally(() => {
        this.running.delete(key);
        const next = this.again.get(key);
        this.again.delete(key);
        if (next && !this.stopped) this.schedule(next.viewer, 0, next.flows, next.waits);
      });
    this.running.set(key, run);
  }

  private async publishOnce(p: Pending): Promise<void> {
    if (Date.now() < this.pausedUntil) return;
    const { viewer } = p;
    // Through the installation of the viewer's workspace; removed since, there is no Home to publish.
    const bot = await this.bot.forTeam(viewer.teamId);
    if (!bot) return;
    for (const flowId of p.flows) {
      if ((await flowStillRunning(this.bot.store, viewer, flowId)) && p.waits < FLOW_END_WAITS) {
        this.schedule(viewer, HOME_DEBOUNCE_MS, p.flows, p.waits + 1);
        return;
      }
    }
    const key = keyOf(viewer);
    let fallback = false;
    for (let attempt = 0; attempt < 3; attempt++) {
      const view = fallback ? fallbackHomeView(Date.now()) : homeView(await loadHome(bot, viewer));
      const hash = this.hashes.get(key);
      try {
        const res = await bot.slack.views.publish({
          user_id: viewer.userId,
          view,
          ...(hash ? { hash } : {}),
        });
        const next = (res.view as { hash?: string } | undefined)?.hash;
        if (next) this.hashes.set(key, next);
        else this.hashes.delete(key);
        await this.markHome(viewer);
        return;
      } catch (e) {
        const error = (e as { data?: { error?: string } }).data?.error;
        if (error === 'hash_conflict') {
          // Someone published since: build again from the store as it is now, and that one wins.
          this.hashes.delete(key);
          continue;
        }
        if (error === 'not_enabled') {
          this.pausedUntil = Date.now() + NOT_ENABLED_PAUSE_MS;
          this.bot.logger.info(
            'the app has no Home tab (manifest features.app_home); Homes are not published',
          );
          return;
        }
        const f = slackFailure(e);
        const log = { user: viewer.userId, err: errText(e) };
        if (f.kind === 'content' && !fallback) {
          // A Home Slack will not take as built still says where everything is.
          this.bot.logger.error(log, 'Slack refused a Home; publishing the short one instead');
          fallback = true;
          continue;
        }
        const tries = p.tries ?? 0;
        if (f.kind === 'rate-limited' || (f.kind === 'unavailable' && tries < UNAVAILABLE_RETRIES)) {
          // Only this person's Home waits: the others have their own timers.
          const wait =
            f.kind === 'rate-limited' ? (f.retryAfterMs ?? 1_000) : UNAVAILABLE_WAIT_MS * 3 ** tries;
          this.bot.logger.info(
            { ...log, waitMs: wait },
            'a Home was not published; publishing it again later',
          );
          if (!this.stopped)
            this.schedule(viewer, Math.round(wait * (1 + Math.random() * 0.5)), p.flows, p.waits, tries + 1);
          return;
        }
        throw e;
      }
    }
  }

  private async hasHome(viewer: HomeViewer): Promise<boolean> {
    const key = keyOf(viewer);
    if (this.knownViewers.has(key)) return true;
    const known = await hasHome(this.bot.store, key);
    if (known) this.knownViewers.add(key);
    return known;
  }

  private async markHome(viewer: HomeViewer): Promise<void> {
    const key = keyOf(viewer);
    if (this.knownViewers.has(key)) return;
    await markHome(this.bot.store, key, this.bot.now().getTime());
    this.knownViewers.add(key);
  }

  /** The approvers who decide a request as people: user IDs, and the members of the user groups. */
  private async approverUsers(
    teamId: string,
    request: Pick<ApprovalRequest, 'approversWorkspace' | 'approversStrictest'>,
  ): Promise<string[]> {
    const { users, groups } = this.bot.approvals.approverIdsOf(request);
    if (groups.length === 0) return users;
    // User groups belong to a workspace: they are read through its installation.
    const key = `${teamId}:${groups.join(' ')}`;
    const hit = this.groupCache.get(key);
    const speaking =
      hit && Date.now() - hit.at <= GROUP_CACHE_MS ? undefined : await this.bot.forTeam(teamId);
    const members = speaking ? await groupMembers(speaking, groups) : (hit?.users ?? []);
    if (members !== hit?.users) this.groupCache.set(key, { at: Date.now(), users: members });
    return [...new Set([...users, ...members])];
  }
}

const keyOf = (v: HomeViewer) => `${v.teamId}:${v.userId}`;

/**
 * What one person's Home shows, for their team only (`readHome` in core says what that is), with the
 * counts the view needs to say when there is more.
 */
export async function loadHome(bot: Bot, viewer: HomeViewer): Promise<HomeData> {
  const { teamId, userId } = viewer;
  const now = bot.now().getTime();
  const [isApprover, timeZone, standing, setup] = await Promise.all([
    bot.approvals.isApprover(userId),
    bot.zoneOf(userId),
    bot.connections.standing(viewer),
    setupOf(bot, viewer),
  ]);
  // Flows are followed on the machine's clock (the tracker's), so "the last days" are counted on it too.
  const flowNow = Date.now();
  const r = await readHome(bot.store, {
    teamId,
    userId,
    now,
    flowNow,
    mayDecide: (request) => bot.approvals.mayDecide(request, userId),
    allowSelfApproval: bot.config.approvals.allowSelfApproval,
    flowDays: HOME_FLOW_DAYS,
    shown: HOME_SHOWN,
  });
  const listed = <T>(items: T[], shown: number, limit?: number) => ({
    items: items.slice(0, shown),
    total: items.length,
    ...(limit !== undefined && items.length >= limit ? { atLeast: true } : {}),
  });
  return {
    userId,
    // Approvers of one workspace see the requests waiting for them too.
    isApprover: isApprover || r.waiting.length > 0,
    waiting: listed(r.waiting, HOME_SHOWN.waiting),
    mine: listed(r.mine, HOME_SHOWN.mine),
    flows: listed<TrackedFlow>(r.flows, HOME_SHOWN.flows, 100),
    channels: listed(r.channels, HOME_SHOWN.channels, HOME_SHOWN.channels + 1),
    names: r.names,
    now: flowNow,
    timeZone,
    identity: { standing, canConnect: bot.connections.canConnect },
    schedules: listed(await bot.store.listSchedules({ teamId, ownerId: userId, limit: 51 }), 5, 51),
    ...(setup ? { setup } : {}),
  };
}

/**
 * "Add to Slack": what the workspace works with, shown when it has no account yet or to those who may
 * change it, as the setup feature shows it (loaded only where installations are: with one bot token,
 * there is nothing to set up in Slack).
 */
async function setupOf(bot: Bot, viewer: HomeViewer): Promise<HomeData['setup']> {
  if (!bot.accounts) return undefined;
  const [account, mayConnect, { setupBlocks }] = await Promise.all([
    bot.accounts.account(viewer.teamId),
    bot.accounts
      .refusal({ ...viewer, surface: 'setup' })
      .then((refused) => refused === null)
      .catch(() => false),
    import('../setup/index.js'),
  ]);
  return mayConnect || !account ? setupBlocks(account, mayConnect) : undefined;
}

const publishers = new WeakMap<Bot, HomePublisher>();

/** This bot's publisher (one per thread that runs follow-ups, whichever tenant it speaks to). */
export function homes(bot: Bot): HomePublisher {
  let p = publishers.get(bot.composed);
  if (!p) {
    p = new HomePublisher(bot.composed);
    publishers.set(bot.composed, p);
  }
  return p;
}

/** Stops this bot's publisher, if it has one. */
export async function stopHomes(bot: Bot): Promise<void> {
  await publishers.get(bot.composed)?.stop();
}

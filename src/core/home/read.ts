import type { StoredChannelDefaults } from '../channel-defaults.js';
import { teamRecords } from '../gate/team.js';
import type { ApprovalRequest, CatalogKind, Store, TrackedFlow } from '../records.js';

const DAY_MS = 86_400_000;

export interface HomeQuery {
  teamId: string;
  userId: string;
  /** The bot's clock (ms): what has expired, which channels were used lately. */
  now: number;
  /** The machine's clock (ms), on which flows are followed: "the last days" of flows. */
  flowNow: number;
  /** Whether this person is one of the approvers who decide a request (core/read-scope.ts). */
  mayDecide(request: ApprovalRequest): Promise<boolean>;
  allowSelfApproval: boolean;
  /** How many days of flows are listed. */
  flowDays: number;
  /** How many of each are shown, so that only their names are looked up. */
  shown: { waiting: number; mine: number; channels: number };
}

export interface HomeRecords {
  /** Pending requests this person may decide. */
  waiting: ApprovalRequest[];
  /** Their own pending requests. */
  mine: ApprovalRequest[];
  /** Flows they started in the last days (at most 100). */
  flows: TrackedFlow[];
  /** Channels where the audit log saw them act, as many as are shown. */
  channels: { channelId: string; defaults: StoredChannelDefaults | null }[];
  /** Catalog names of the models and defaults shown. */
  names: Record<string, string>;
}

/**
 * What one person's Home shows, read from the store for their team only: the pending requests they may
 * decide (never their own, unless self-approval is on), their own pending requests, the flows they
 * started in the last days, and the channels where the audit log saw them act, with those channels'
 * defaults; names from the team's catalog.
 */
export async function readHome(store: Store, q: HomeQuery): Promise<HomeRecords> {
  const { teamId, userId, now } = q;
  const pending = (await store.listApprovals({ statuses: ['pending'], teamId, limit: 100 })).filter(
    (r) => r.expiresAt > now,
  );
  const waiting: ApprovalRequest[] = [];
  for (const r of pending)
    if ((r.requesterId !== userId || q.allowSelfApproval) && (await q.mayDecide(r))) waiting.push(r);
  const mine = pending.filter((r) => r.requesterId === userId);
  const flows = await store.listTrackedFlows({
    teamId,
    requesterId: userId,
    since: q.flowNow - q.flowDays * DAY_MS,
    limit: 100,
  });
  const used = await store.listUserChannels({
    teamId,
    userId,
    since: now - 90 * DAY_MS,
    limit: q.shown.channels + 1,
  });
  const channels = await Promise.all(
    used.slice(0, q.shown.channels).map(async (c) => ({
      channelId: c.channelId,
      defaults: await store.getChannelDefaults(c.channelId),
    })),
  );

  const wanted: [CatalogKind, string][] = [];
  const shownRequests = [...waiting.slice(0, q.shown.waiting), ...mine.slice(0, q.shown.mine)];
  for (const r of shownRequests) wanted.push(['model', r.modelId]);
  for (const c of channels) {
    const d = c.defaults;
    if (d?.workspace) wanted.push(['workspace', d.workspace]);
    if (d?.model) wanted.push(['model', d.model]);
    if (d?.assessment) wanted.push(['assessment', d.assessment]);
    if (d?.datastream) wanted.push(['datastream', d.datastream]);
  }
  const names: Record<string, string> = {};
  for (const [kind, id] of wanted) {
    if (names[id]) continue;
    const e = await store.getCatalogEntry(teamId, kind, id);
    if (e?.name && e.missingAt === null) names[id] = e.name;
  }
  return { waiting, mine, flows, channels, names };
}

const HAS_HOME = 'home-viewer:';

/** Whether this person (`teamId:userId`) has a Home the bot published. */
export async function hasHome(store: Pick<Store, 'getState'>, viewer: string): Promise<boolean> {
  return (await store.getState(HAS_HOME + viewer)) !== null;
}

/** Marks that this person has a Home: only they are published again when something of theirs changes. */
export async function markHome(store: Pick<Store, 'getState' | 'setState'>, viewer: string, since: number) {
  if ((await store.getState(HAS_HOME + viewer)) === null)
    await store.setState(HAS_HOME + viewer, { since }, Date.now());
}

/** Whether a followed flow has not ended yet (a Home waits for its end to show). */
export async function flowStillRunning(
  store: Pick<Store, 'getTrackedFlow' | 'getApproval' | 'getSchedule'>,
  viewer: { teamId: string },
  flowId: string,
): Promise<boolean> {
  const f = await teamRecords(store, viewer.teamId).flow(flowId);
  return Boolean(f && !f.endReason);
}

import { describe, expect, it } from 'vitest';
import { ackHomeDecision, ackHomeOpened } from '../../src/slack/home/listeners.js';
import { HOME_ACTION, type HomeData, homeView } from '../../src/slack/home/views.js';
import type { Job } from '../../src/slack/runtime/jobs.js';
import type { ApprovalRequest, Schedule, TrackedFlow } from '../../src/store/index.js';
import { checkBlockKitLimits } from '../../src/wire/block-kit.js';
import { validateView } from '../../standins/localslack/index.js';
import { approvalRecord, trackedFlowRecord } from '../support/fixtures/records.js';

const EVIL = '<!channel> *bold* <http://evil|click> & more';
const T = Date.UTC(2026, 10, 22, 10, 42);
const id = (n: number) => `14000000000000${String(n).padStart(5, '0')}`;

function request(n: number, requesterId: string): ApprovalRequest {
  return approvalRecord({
    id: `6f1c1d9e-0000-4000-8000-${String(n).padStart(12, '0')}`,
    action: n % 2 ? 'start' : 'stop',
    modelId: id(n),
    reason: `${EVIL} ${'r'.repeat(400)}`,
    requesterId,
    createdAt: T,
    expiresAt: T + 4 * 3_600_000,
  });
}

function flow(n: number): TrackedFlow {
  return trackedFlowRecord({
    flowId: id(n),
    asked: `/tsai learn ${EVIL}`,
    request: { operation: { kind: 'learn', workspaceId: id(9) }, outcome: {} },
    statusChangedAt: T + 60_000,
    createdAt: T,
    polls: 3,
    nextPollAt: T,
    finishedAt: T + 60_000,
    result: {
      models: [{ id: id(n + 1000), name: `${EVIL} model ${'m'.repeat(300)}`, created: true }],
      dataspecs: [{ id: id(n + 2000) }],
      others: Array.from({ length: 9 }, (_, i) => ({ type: `thing ${i}`, id: id(i) })),
    },
    notifiedAt: T + 60_000,
  });
}

function data(over: Partial<HomeData> = {}): HomeData {
  const list = <X>(items: X[]) => ({ items, total: items.length });
  return {
    userId: 'U0BOB',
    isApprover: true,
    waiting: list([request(1, 'U0ALICE')]),
    mine: list([request(2, 'U0BOB')]),
    flows: list([flow(3)]),
    channels: list([{ channelId: 'C0OPS', defaults: null }]),
    names: {},
    now: T,
    timeZone: 'Europe/London',
    ...over,
  };
}

describe('the Home view', () => {
  it('stays within 100 blocks and every Block Kit limit with long lists, saying how many more there are', () => {
    const many = <X>(make: (n: number) => X, n: number, shown: number) => ({
      items: Array.from({ length: shown }, (_, i) => make(i + 10)),
      total: n,
      atLeast: true,
    });
    const view = homeView(
      data({
        waiting: many((n) => request(n, 'U0ALICE'), 100, 10),
        mine: many((n) => request(n, 'U0BOB'), 37, 10),
        flows: many(flow, 100, 15),
        channels: many(
          (n) => ({
            channelId: `C0CH${n}`,
            defaults: {
              channelId: `C0CH${n}`,
              workspace: id(1),
              model: id(2),
              datastream: id(3),
              assessment: id(4),
              entities: Array.from({ length: 100 }, (_, i) => `entity-${i}-${'e'.repeat(30)}`),
              updatedBy: 'U0BOB',
              updatedAt: T,
            },
          }),
          9,
          8,
        ),
        names: { [id(1)]: EVIL.repeat(10), [id(2)]: 'Baseline' },
      }),
    );
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(checkBlockKitLimits(view, 'home')).toEqual([]);
    expect(validateView(view, 'home')).toBeNull();
    const text = JSON.stringify(view);
    expect(text).toContain('…and at least 90 more requests: `/tsai approvals` lists them all.');
    expect(text).toContain('…and at least 27 more requests.');
    expect(text).toContain('…and at least 85 more flows: `/tsai flows` in a channel lists its own.');
    expect(text).toContain('…and at least 1 more channel.');
    // What users or the service wrote cannot ping or link.
    expect(text).not.toContain('<!channel>');
    expect(text).not.toContain('<http://evil');
  });

  it('lists the person’s schedules in every channel, with the next run as a Slack date and the last outcome', () => {
    const schedule = (n: number, over: Partial<Schedule> = {}): Schedule => ({
      id: `5c4ed01e${n}`,
      teamId: 'T0TEAM',
      channelId: `C0CH${n}`,
      ownerId: 'U0BOB',
      name: `score ${n}`,
      kind: 'command',
      command: `score ${id(2)} workspace=${id(1)} range="last 8 hours" ${EVIL}`,
      whenText: 'every weekday at 06:00',
      rule: { pattern: '0 6 * * 1-5' },
      timeZone: 'Europe/London',
      status: 'active',
      statusReason: null,
      statusBy: null,
      approvalId: null,
      createdAt: T,
      updatedAt: T,
      nextRunAt: T + 3_600_000,
      lastRunAt: T - 86_400_000,
      lastOutcome: 'failed',
      lastDetail: EVIL,
      leaseOwner: null,
      leaseUntil: null,
      approversWorkspace: null,
      approversStrictest: false,
      modelDoubt: null,
      traceParent: null,
      ...over,
    });
    const view = homeView(
      data({
        schedules: {
          items: [
            schedule(1),
            schedule(2, { status: 'paused', statusReason: 'paused by a person', nextRunAt: null }),
          ],
          total: 7,
        },
      }),
    );
    expect(checkBlockKitLimits(view, 'home')).toEqual([]);
    const text = JSON.stringify(view);
    expect(text).toContain('Your schedules');
    expect(text).toContain(`<!date^${(T + 3_600_000) / 1000}^`);
    expect(text).toContain('<#C0CH1>');
    expect(text).toMatch(/:x: failed/);
    expect(text).toContain('*paused* (paused by a person)');
    expect(text).toContain('…and 5 more schedules');
    expect(text).not.toContain('<!channel>');
  });

  it('shows the buttons only to approvers, and the model of a finished flow', () => {
    const bob = homeView(data());
    const buttons = (bob.blocks as { type: string; elements?: { action_id?: string }[] }[]).flatMap((b) =>
      b.type === 'actions' ? (b.elements ?? []) : [],
    );
    expect(buttons.map((e) => e.action_id)).toEqual([HOME_ACTION.approve, HOME_ACTION.reject]);
    const alice = homeView(data({ isApprover: false }));
    expect(alice.blocks.some((b) => b.type === 'actions')).toBe(false);
    expect(JSON.stringify(alice)).not.toContain('Waiting for your approval');
    expect(JSON.stringify(alice)).toContain('*Model created*');
  });
});

describe('the Home listeners', () => {
  const collect = () => {
    const jobs: Job[] = [];
    return { jobs, followUps: { run: (j: Job) => void jobs.push(j) } };
  };

  it('hand on an opened Home tab, not the Messages tab, nor an event without a team', async () => {
    const { jobs, followUps } = collect();
    const open = (event: Record<string, unknown>, teamId: unknown = 'T0LOCAL') =>
      ackHomeOpened({ event, body: { team_id: teamId } } as never, followUps);
    await open({ type: 'app_home_opened', user: 'U0BOB', tab: 'home', view: { hash: 'h1' } });
    await open({ type: 'app_home_opened', user: 'U0BOB', tab: 'messages' });
    await open({ type: 'app_home_opened', user: 'U0BOB', tab: 'home' }, null);
    await open({ type: 'app_home_opened', tab: 'home' });
    expect(jobs).toEqual([{ kind: 'home-opened', userId: 'U0BOB', teamId: 'T0LOCAL', hash: 'h1' }]);
  });

  it('ack a click at once and hand on the decision with the request it names', async () => {
    const { jobs, followUps } = collect();
    let acked = 0;
    await ackHomeDecision(
      {
        ack: async () => void acked++,
        body: { user: { id: 'U0BOB', team_id: 'T0LOCAL' }, trigger_id: 't1' },
        action: { action_id: HOME_ACTION.reject, value: 'req-1' },
      } as never,
      followUps,
    );
    expect(acked).toBe(1);
    expect(jobs).toEqual([
      {
        kind: 'home-decision',
        action: 'reject',
        requestId: 'req-1',
        userId: 'U0BOB',
        teamId: 'T0LOCAL',
        triggerId: 't1',
      },
    ]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from '../../src/slack/bot.js';
import { HomePublisher } from '../../src/slack/home/publish.js';
import type { Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';

/**
 * The Home publisher against a real store and a Slack client that records what it is asked: bursts
 * coalesce, a change during a publish makes exactly one more, a hash conflict is rebuilt, and only
 * people who have a Home are republished when something changes.
 */
interface Publish {
  user_id: string;
  hash?: string;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('the Home publisher', () => {
  let store: Store;
  let publishes: Publish[];
  let answer: (args: Publish) => Promise<unknown>;
  let publisher: HomePublisher;
  let published: (n: number) => Promise<void>;

  storeForEachTest((s) => {
    store = s;
  });
  beforeEach(async () => {
    publishes = [];
    const waiters: { n: number; done: () => void }[] = [];
    published = (n) => {
      if (publishes.length >= n) return Promise.resolve();
      return new Promise((done) => waiters.push({ n, done }));
    };
    answer = async () => ({ ok: true, view: { hash: `h${publishes.length}` } });
    const bot = {
      store,
      forTeam: async () => bot,
      now: () => new Date(),
      logger: { warn() {}, info() {}, error() {} },
      config: { approvals: { allowSelfApproval: false } },
      zoneOf: async () => 'UTC',
      approvals: {
        isApprover: async () => false,
        mayDecide: async () => false,
        approverIds: { users: ['U0BOB'], groups: [] },
        approverIdsOf: () => ({ users: ['U0BOB'], groups: [] }),
      },
      connections: { standing: async () => ({ kind: 'shared' }), canConnect: true },
      slack: {
        views: {
          publish: async (args: Publish) => {
            publishes.push(args);
            const out = await answer(args);
            for (const w of waiters.filter((x) => publishes.length >= x.n)) w.done();
            return out;
          },
        },
      },
    } as unknown as Bot;
    publisher = new HomePublisher(bot);
  });
  afterEach(async () => {
    await publisher.stop();
  });

  const alice = { teamId: 'T0', userId: 'U0ALICE' };
  /** Nothing waits and nothing is on its way. */
  const settled = async () => {
    while (publisher.busy) await new Promise(setImmediate);
  };

  it('publishes a burst of asks once', async () => {
    for (let i = 0; i < 10; i++) publisher.request(alice, { delayMs: 0 });
    await published(1);
    await settled();
    expect(publishes.map((p) => p.user_id)).toEqual(['U0ALICE']);
  });

  it('an ask while a publish is on its way makes exactly one more, with the hash the first got', async () => {
    const gate = deferred();
    answer = async () => {
      if (publishes.length === 1) await gate.promise;
      return { ok: true, view: { hash: `h${publishes.length}` } };
    };
    publisher.request(alice, { delayMs: 0 });
    await new Promise<void>((r) => {
      const check = () => (publishes.length === 1 ? r() : setImmediate(check));
      check();
    });
    for (let i = 0; i < 5; i++) publisher.request(alice, { delayMs: 0 });
    gate.resolve();
    await published(2);
    await settled();
    expect(publishes).toHaveLength(2);
    expect(publishes[1]!.hash).toBe('h1');
  });

  it('a hash conflict is built again and published without the stale hash', async () => {
    answer = async (args) => {
      if (args.hash === 'stale')
        throw Object.assign(new Error('An API error occurred: hash_conflict'), {
          data: { ok: false, error: 'hash_conflict' },
        });
      return { ok: true, view: { hash: 'fresh' } };
    };
    publisher.request(alice, { delayMs: 0, hash: 'stale' });
    await published(2);
    await publisher.stop();
    expect(publishes.map((p) => p.hash)).toEqual(['stale', undefined]);
  });

  it('on a change, republishes only the people concerned who have a Home', async () => {
    publisher.request(alice, { delayMs: 0 });
    await published(1);
    // Once published, she is marked as having a Home.
    while ((await store.getState('home-viewer:T0:U0ALICE')) === null) await new Promise(setImmediate);
    // Bob (an approver) never opened his Home: a change concerning him publishes nothing for him.
    await publisher.changed({
      teamId: 'T0',
      userIds: ['U0ALICE'],
      approvers: { approversWorkspace: null, approversStrictest: false },
    });
    await published(2);
    await publisher.stop();
    expect(publishes.map((p) => p.user_id)).toEqual(['U0ALICE', 'U0ALICE']);
    // The mark is in the store, so another replica (or a restart) knows she has a Home.
    expect(await store.getState('home-viewer:T0:U0BOB')).toBeNull();
  });
});

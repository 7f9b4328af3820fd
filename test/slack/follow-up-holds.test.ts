import type { SlashCommand } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startFollowUpHolds, tellAbandoned } from '../../src/slack/runtime/holds.js';
import type { Job, Notice } from '../../src/slack/runtime/jobs.js';
import type { Store } from '../../src/store/index.js';
import { storeForEachTest } from '../support/fixtures/store.js';
import { captureLogs } from '../support/logs.js';

const command = (text: string): Job => ({
  kind: 'command',
  command: {
    command: '/tsai',
    text,
    user_id: 'U0ALICE',
    channel_id: 'C0OPS',
    response_url: 'https://hooks.slack.test/commands/T0/1/abc',
  } as SlashCommand,
});
const homeOpened: Job = { kind: 'home-opened', userId: 'U0ALICE', teamId: 'T0' };
const turn = () => new Promise((ok) => setImmediate(ok));
const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** Every hold in the store, whoever holds it (taking them: only for looking at the end of a test). */
const everything = (store: Store) => store.takeAbandonedFollowUps(Number.MAX_SAFE_INTEGER, 1_000);

describe('follow-ups held in the store while in hand', () => {
  let store: Store;
  storeForEachTest((s) => {
    store = s;
  });

  it('holds what somebody waits for until it is done, and renews it while the process lives', async () => {
    const { destination, lines } = captureLogs();
    const logger = createLogger({ level: 'debug', secrets: [], destination });
    const holds = startFollowUpHolds({ store, logger, leaseMs: 150 });
    holds.hold(1, command('learn name=a'));
    // A token pasted into a command must not be kept with it.
    holds.hold(2, command('learn name=b xoxp-1234567890-abcdefABCDEF0123456789'));
    holds.hold(3, homeOpened); // nobody waits on it: not held
    holds.hold(4, command('flows'));
    holds.release([4]); // done before it was written: never written
    await turn();
    holds.release([1]);
    await pause(400);
    // Alive: renewed, so none of its holds counts as abandoned now.
    expect(await store.takeAbandonedFollowUps(Date.now(), 10)).toEqual([]);
    const held = await everything(store);
    // Named by its first word, with no response URL: nothing a person typed and nothing to post with.
    expect(held.map((h) => h.notice)).toEqual([
      { userId: 'U0ALICE', channelId: 'C0OPS', what: '`/tsai learn`' },
    ]);
    expect(JSON.stringify(held)).not.toContain('xoxp-');
    expect(JSON.stringify(held)).not.toContain('hooks.slack.test');
    await holds.close();
    expect(lines.join('\n')).not.toContain('hooks.slack.test');
  });

  it('forgets every hold of the process at a clean stop, also those written at that moment', async () => {
    const holds = startFollowUpHolds({ store, logger: createLogger({ level: 'silent', secrets: [] }) });
    holds.hold(1, command('learn name=a'));
    await turn();
    await pause(50);
    holds.hold(2, command('learn name=b'));
    await holds.close();
    expect(await everything(store)).toEqual([]);
  });

  it('holds a job whose payload values are not strings without throwing into its listener', async () => {
    const holds = startFollowUpHolds({ store, logger: createLogger({ level: 'silent', secrets: [] }) });
    const garbage = {
      kind: 'approval-click',
      action: 'approve',
      requestId: { not: 'a string' },
      userId: 'U0BOB',
      triggerId: 't',
    } as unknown as Job;
    expect(() => holds.hold(1, garbage)).not.toThrow();
    await turn();
    await pause(50);
    expect((await everything(store)).map((h) => h.notice.what)).toEqual([
      'your approve click on request `[object Object]`',
    ]);
    await holds.close();
  });

  it('tells the person behind each abandoned hold once, that it may or may not have reached the service', async () => {
    const notice: Notice = {
      userId: 'U0ALICE',
      channelId: 'C0OPS',
      responseUrl: 'https://hooks.slack.test/commands/T0/2/def',
      what: '`/tsai learn name=x`',
    };
    const t = Date.now();
    await store.holdFollowUps('dead-process', t - 1, [
      { id: 'dead-process:7', notice: { ...notice }, heldAt: t - 5_000 },
    ]);
    await store.holdFollowUps('live-process', t + 60_000, [
      { id: 'live-process:1', notice: { ...notice, what: 'other' }, heldAt: t },
    ]);
    const told: { notice: Notice; text: string }[] = [];
    const tell = async (n: Notice, text: string) => void told.push({ notice: n, text });
    expect(await tellAbandoned(store, tell, t)).toBe(1);
    expect(await tellAbandoned(store, tell, t)).toBe(0);
    expect(told).toEqual([
      {
        notice,
        text: expect.stringMatching(
          /^The bot was interrupted while handling `\/tsai learn name=x`\. It may or may not have reached the service/,
        ),
      },
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBareBolt } from '../../bench/bare-app.js';
import { closedLoop, firstAck, openLoop, slashCommandBody } from '../../bench/driver.js';
import { freePort, procStatusMb } from '../../bench/procs.js';
import { type LocalSlack, startLocalSlack } from '../../standins/localslack/index.js';

const SECRET = 'bench-test-signing-secret';
const TOKEN = 'xoxb-bench-test';
const body = (i: number) =>
  slashCommandBody({
    text: 'help',
    user: 'U0ALICE',
    channel: 'C0GENERAL',
    triggerId: `t-${i}`,
    responseUrl: 'http://127.0.0.1:9/response/none',
  });

describe('bench load driver against the bare Bolt app (smoke, no timing assertions)', () => {
  let bare: Awaited<ReturnType<typeof startBareBolt>>;
  let slack: LocalSlack;
  beforeAll(async () => {
    // The app's Web API (auth.test) goes to the local stand-in, never to slack.com.
    slack = await startLocalSlack({ signingSecret: SECRET, botToken: TOKEN });
    bare = await startBareBolt({
      signingSecret: SECRET,
      botToken: TOKEN,
      slackApiUrl: slack.apiUrl,
      port: 0,
    });
  });
  afterAll(async () => {
    await bare.stop();
    await slack.close();
  });

  it('builds the form body Slack sends for a slash command', () => {
    const f = new URLSearchParams(body(3));
    expect(f.get('command')).toBe('/tsai');
    expect(f.get('text')).toBe('help');
    expect(f.get('user_id')).toBe('U0ALICE');
    expect(f.get('trigger_id')).toBe('t-3');
  });

  it('closed loop: every signed request is acked and timed', async () => {
    const r = await closedLoop(
      { origin: bare.url, signingSecret: SECRET },
      { concurrency: 3, total: 9, maxMs: 10_000, body },
    );
    expect(r.sent).toBe(9);
    expect(r.errors).toBe(0);
    expect(r.outcomes).toEqual({ '200': 9 });
    expect(r.latencies).toHaveLength(9);
    expect(r.latencies.every((x) => x > 0)).toBe(true);
  });

  it('can leave each connection-opening first request out of the latencies', async () => {
    const r = await closedLoop(
      { origin: bare.url, signingSecret: SECRET },
      { concurrency: 3, total: 9, maxMs: 10_000, body, untimedFirst: true },
    );
    expect(r.sent).toBe(9);
    expect(r.untimed).toBe(3);
    expect(r.latencies).toHaveLength(6);
  });

  it('counts rejected requests as errors, not as latencies (wrong signing secret → 401)', async () => {
    const r = await closedLoop(
      { origin: bare.url, signingSecret: 'not-the-secret' },
      { concurrency: 2, total: 4, maxMs: 10_000, body },
    );
    expect(r.outcomes).toEqual({ '401': 4 });
    expect(r.errors).toBe(4);
    expect(r.latencies).toHaveLength(0);
  });

  it('open loop: sends rate × duration requests and stops by itself', async () => {
    const r = await openLoop(
      { origin: bare.url, signingSecret: SECRET },
      { rate: 40, durationMs: 250, body },
    );
    expect(r.sent).toBe(10);
    expect(r.outcomes).toEqual({ '200': 10 });
  });

  it('firstAck finds a listening app and gives up on a port nobody listens on', async () => {
    const start = performance.now();
    const ms = await firstAck({ origin: bare.url, signingSecret: SECRET }, () => body(0), {
      start,
      timeoutMs: 5000,
    });
    expect(ms).not.toBeNull();
    const port = await freePort();
    const none = await firstAck(
      { origin: `http://127.0.0.1:${port}`, signingSecret: SECRET },
      () => body(0),
      {
        start: performance.now(),
        timeoutMs: 200,
      },
    );
    expect(none).toBeNull();
  });

  it('reads RSS from /proc for a live process', () => {
    const rss = procStatusMb(process.pid, 'VmRSS');
    if (process.platform === 'linux') expect(rss).toBeGreaterThan(1);
    else expect(rss).toBeNull();
  });
});

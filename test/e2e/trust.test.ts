import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signSlackRequest, TEAM_ID } from '../../standins/localslack/index.js';
import {
  DEFAULT_CHANNEL,
  DEFAULT_USER,
  type Harness,
  SIGNING_SECRET,
  startHarness,
} from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A raw connection to the bot: what it answered, and when it closed the connection. */
interface Raw {
  socket: Socket;
  /** Everything the bot sent so far. */
  answer(): string;
  /** Resolves when the bot (or the network) closed the connection. */
  closed: Promise<void>;
  /** Resolves with the status line as soon as it arrives. */
  status: Promise<string>;
}

function openRaw(): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: h.bot.port()! });
    let answer = '';
    let onStatus: (s: string) => void = () => undefined;
    const status = new Promise<string>((r) => {
      onStatus = r;
    });
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.on('data', (d: Buffer) => {
      answer += d.toString('latin1');
      const line = /^HTTP\/1\.1 \d{3}/.exec(answer);
      if (line) onStatus(line[0]);
    });
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, answer: () => answer, closed, status }));
    socket.once('error', reject);
  });
}

const write = (s: Socket, data: string | Buffer) =>
  new Promise<void>((r) => (s.destroyed ? r() : s.write(data, () => r())));

/** A `/tsai` command body as Slack sends it, with a fresh trigger and response_url. */
function commandBody(text: string): string {
  const responseUrl = `${h.slack.url}/response/${h.slack.state.issueResponseUrl({ user: DEFAULT_USER, channel: DEFAULT_CHANNEL })}`;
  return new URLSearchParams({
    token: 'local-verification-token',
    team_id: TEAM_ID,
    channel_id: DEFAULT_CHANNEL,
    user_id: DEFAULT_USER,
    user_name: 'alice',
    command: '/tsai',
    text,
    api_app_id: h.slack.appId,
    response_url: responseUrl,
    trigger_id: h.slack.state.issueTrigger(DEFAULT_USER),
  }).toString();
}

const workspacesCreated = async (name: string) =>
  (await h.serviceRequests()).filter(
    (r) => r.method === 'POST' && (r.body as { name?: string } | undefined)?.name === name,
  ).length;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it holds (the test's own timeout bounds the wait). */
async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await sleep(100);
}

/** Waits until the bot has written no log line and made no Slack call for a second. */
async function quiet(): Promise<void> {
  let seen = -1;
  for (;;) {
    const now = h.logs.length + h.slack.calls.length;
    if (now === seen) return;
    seen = now;
    await sleep(1000);
  }
}

const SEEN_BEFORE = 'a Slack request seen before (a retry or a replay); acknowledged, nothing done';
const seenBeforeLogged = (from: number) =>
  h.logs.slice(from).filter((l) => (JSON.parse(l) as { msg: string }).msg === SEEN_BEFORE).length;

describe('unsigned and oversized bodies cost nothing', () => {
  it('a request without a signature is answered 401 before its body is sent', async () => {
    const raw = await openRaw();
    await write(
      raw.socket,
      'POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 52428800\r\n\r\n',
    );
    // Not a byte of the 50 MB body was sent: the answer cannot have waited for it.
    expect(await raw.status).toBe('HTTP/1.1 401');
    await raw.closed;
  });

  it('a body that streams past 1 MiB is cut with 413 while the rest is still unsent', async () => {
    const raw = await openRaw();
    const ts = nowSeconds();
    await write(
      raw.socket,
      `POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nX-Slack-Request-Timestamp: ${ts}\r\nX-Slack-Signature: v0=${'ab'.repeat(32)}\r\n\r\n`,
    );
    // Deeply nested JSON, 64 KiB a chunk, with no end: the bot must stop reading on its own.
    const chunk = Buffer.from('['.repeat(64 * 1024));
    let sent = 0;
    let answered = false;
    void raw.status.then(() => {
      answered = true;
    });
    while (!answered && !raw.socket.destroyed && sent < 64 * 1024 * 1024) {
      await write(
        raw.socket,
        Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
      );
      sent += chunk.length;
    }
    expect(await raw.status).toBe('HTTP/1.1 413');
    await raw.closed;
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('a declared length past the limit is refused with 413 before the body', async () => {
    const raw = await openRaw();
    const ts = nowSeconds();
    await write(
      raw.socket,
      `POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\nX-Slack-Request-Timestamp: ${ts}\r\nX-Slack-Signature: ${signSlackRequest(SIGNING_SECRET, '', ts)}\r\n\r\n`,
    );
    expect(await raw.status).toBe('HTTP/1.1 413');
    await raw.closed;
  });

  it('a wrong signature, or a timestamp more than 5 minutes away either way, is refused; nothing is done', async () => {
    const name = 'signed-window';
    const post = (ts: number, signature?: string) => {
      const body = commandBody(`workspace create ${name}`);
      return h.slack.signedPost('/slack/events', body, {
        timestamp: ts,
        ...(signature ? { signature } : {}),
      });
    };
    const now = nowSeconds();
    expect((await post(now + 6 * 60)).status).toBe(401);
    expect((await post(now - 6 * 60)).status).toBe(401);
    expect((await post(now, `v0=${'0'.repeat(64)}`)).status).toBe(401);
    expect((await post(now, 'v1=abc')).status).toBe(401);
    expect(await workspacesCreated(name)).toBe(0);
    // A few minutes ahead is within the window: the same command acts.
    expect((await post(now + 4 * 60)).status).toBe(200);
    await until(async () => (await workspacesCreated(name)) === 1);
  });

  it("Slack's unsigned ssl_check is answered 200; a flood of unsigned nested bodies leaves signed commands working", async () => {
    const ssl = await fetch(`http://127.0.0.1:${h.bot.port()}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'ssl_check=1&token=x',
    });
    expect(ssl.status).toBe(200);
    const nested = `payload=${'%5B'.repeat(512 * 1024)}`;
    const flood = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`http://127.0.0.1:${h.bot.port()}/slack/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: nested,
        }).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    // 401, or a connection the bot closed before the upload ended (it stops reading at once).
    for (const s of flood) expect([401, 0]).toContain(s);
    expect(flood).toContain(401);
    const reply = await h.commandAndReply('help');
    expect(reply.text ?? JSON.stringify(reply.blocks)).toMatch(/tsai/);
  });
});

describe('each signed request is acted on once', () => {
  it('a replayed command (the same signed bytes) is acknowledged and creates nothing twice', async () => {
    const name = 'replayed-once';
    const body = commandBody(`workspace create ${name}`);
    const ts = nowSeconds();
    const logFrom = h.logs.length;
    expect((await h.slack.signedPost('/slack/events', body, { timestamp: ts })).status).toBe(200);
    const replay = await h.slack.signedPost('/slack/events', body, { timestamp: ts });
    expect(replay).toMatchObject({ status: 200, body: '' });
    expect(seenBeforeLogged(logFrom)).toBe(1);
    await until(async () => (await workspacesCreated(name)) >= 1);
    await quiet();
    expect(await workspacesCreated(name)).toBe(1);
  });

  it('an event delivered again (X-Slack-Retry-Num) is acknowledged, nothing done; a retry of one never seen acts', async () => {
    const dm = h.slack.state.channel(DEFAULT_USER)!.id;
    const event = { type: 'app_home_opened', user: DEFAULT_USER, channel: dm, tab: 'home' };
    const eventId = `EvTRUST${nowSeconds()}`;
    let logFrom = h.logs.length;
    expect((await h.slack.sendEvent(event, { eventId })).status).toBe(200);
    expect(seenBeforeLogged(logFrom)).toBe(0);
    const retry = await h.slack.sendEvent(event, { eventId, retryNum: 1 });
    expect(retry).toMatchObject({ status: 200, body: '' });
    expect(seenBeforeLogged(logFrom)).toBe(1);
    // Slack retries a delivery the bot never got the same way: that one is acted on.
    logFrom = h.logs.length;
    expect((await h.slack.sendEvent(event, { eventId: `${eventId}b`, retryNum: 2 })).status).toBe(200);
    expect(seenBeforeLogged(logFrom)).toBe(0);
  });
});

describe('connections are bounded', () => {
  it('a silent connection is closed, a trickled request is cut, an idle kept-alive one is closed', async () => {
    const silent = openRaw().then((raw) => raw.closed);
    const slowloris = openRaw().then(async (raw) => {
      await write(raw.socket, 'POST /slack/events HTTP/1.1\r\nHost: x\r\n');
      // A header line every half second, for up to a minute: far longer than the bounds allow.
      let lines = 0;
      while (!raw.socket.destroyed && lines < 120) {
        await write(raw.socket, `X-Slow-${lines}: 1\r\n`);
        lines++;
        await Promise.race([new Promise((r) => setTimeout(r, 500)), raw.closed]);
      }
      await raw.closed;
      return lines;
    });
    const keptAlive = openRaw().then(async (raw) => {
      await write(raw.socket, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
      expect(await raw.status).toBe('HTTP/1.1 200');
      await raw.closed;
    });
    const [, lines] = await Promise.all([silent, slowloris, keptAlive]);
    expect(lines).toBeLessThan(120);
  }, 60_000);
});

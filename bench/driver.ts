import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { signSlackRequest } from '../standins/localslack/index.js';

/** What Slack sends for a slash command (form fields as in the local stand-in's `sendCommand`). */
export interface SlashCommand {
  text: string;
  user: string;
  channel: string;
  triggerId: string;
  responseUrl: string;
  command?: string;
  /** The workspace it is typed in (default the stand-in's own). */
  teamId?: string;
}

export function slashCommandBody(c: SlashCommand): string {
  return new URLSearchParams({
    token: 'local-verification-token',
    team_id: c.teamId ?? 'T0LOCAL',
    team_domain: 'local',
    channel_id: c.channel,
    channel_name: 'general',
    user_id: c.user,
    user_name: c.user.toLowerCase(),
    command: c.command ?? '/tsai',
    text: c.text,
    api_app_id: 'A0LOCAL',
    is_enterprise_install: 'false',
    response_url: c.responseUrl,
    trigger_id: c.triggerId,
  }).toString();
}

export interface RunResult {
  /** Ack latencies (ms) of the requests answered 200. */
  latencies: number[];
  /** Requests that failed: a non-200 status, a transport error or no answer in time. */
  errors: number;
  /** Requests answered 200 but left out of the latencies (each worker's connection-opening first one). */
  untimed: number;
  /** Statuses and error names seen, with counts. */
  outcomes: Record<string, number>;
  sent: number;
  elapsedMs: number;
  /** performance.now() at which each request was sent, by index (for views.open timing). */
  sentAt: number[];
}

export interface DriverTarget {
  /** e.g. `http://127.0.0.1:3000` */
  origin: string;
  path?: string;
  signingSecret: string;
  /** Default: a form body, as commands and interactions come; `application/json` for Events API deliveries. */
  contentType?: string;
}

const ACK_TIMEOUT_MS = 10_000;

function newPool(origin: string, connections: number): Pool {
  return new Pool(origin, {
    connections,
    pipelining: 1,
    headersTimeout: ACK_TIMEOUT_MS,
    bodyTimeout: ACK_TIMEOUT_MS,
    connectTimeout: ACK_TIMEOUT_MS,
  });
}

/** Sends one signed request; resolves with the status (or an error name) and its latency from `t0`. */
async function sendOne(
  pool: Pool,
  t: DriverTarget,
  body: string,
  t0: number,
): Promise<{ outcome: string; ms: number }> {
  const ts = Math.floor(Date.now() / 1000);
  try {
    const r = await pool.request({
      path: t.path ?? '/slack/events',
      method: 'POST',
      headers: {
        'content-type': t.contentType ?? 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': String(ts),
        'x-slack-signature': signSlackRequest(t.signingSecret, body, ts),
        'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
      },
      body,
    });
    await r.body.dump();
    return { outcome: String(r.statusCode), ms: performance.now() - t0 };
  } catch (err) {
    const name = (err as { code?: string; name?: string }).code ?? (err as Error).name ?? 'error';
    return { outcome: name, ms: performance.now() - t0 };
  }
}

function newResult(): RunResult {
  return { latencies: [], errors: 0, untimed: 0, outcomes: {}, sent: 0, elapsedMs: 0, sentAt: [] };
}

function record(r: RunResult, o: { outcome: string; ms: number }): void {
  r.outcomes[o.outcome] = (r.outcomes[o.outcome] ?? 0) + 1;
  if (o.outcome === '200') r.latencies.push(o.ms);
  else r.errors++;
}

/**
 * Closed loop: `concurrency` workers each send a request as soon as their previous one is answered,
 * until `total` requests have been sent or `maxMs` has passed. One fresh connection pool per run.
 */
export async function closedLoop(
  t: DriverTarget,
  o: {
    concurrency: number;
    total: number;
    maxMs: number;
    body: (i: number) => string;
    /** Each worker's first request opens its connection; it is sent and checked but not timed. */
    untimedFirst?: boolean;
  },
): Promise<RunResult> {
  const pool = newPool(t.origin, o.concurrency);
  const res = newResult();
  const start = performance.now();
  let next = 0;
  const worker = async () => {
    let first = o.untimedFirst ?? false;
    while (next < o.total && performance.now() - start < o.maxMs) {
      const i = next++;
      const body = o.body(i);
      const t0 = performance.now();
      res.sentAt[i] = t0;
      res.sent++;
      const out = await sendOne(pool, t, body, t0);
      if (first && out.outcome === '200') res.untimed++;
      else record(res, out);
      first = false;
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  res.elapsedMs = performance.now() - start;
  await pool.close();
  return res;
}

/**
 * Open loop: requests at a fixed rate for `durationMs`, whatever the answers; latency is measured from
 * each request's scheduled time, so a driver that falls behind cannot hide queueing.
 */
export async function openLoop(
  t: DriverTarget,
  o: { rate: number; durationMs: number; body: (i: number) => string; connections?: number },
): Promise<RunResult> {
  const pool = newPool(t.origin, o.connections ?? 512);
  const res = newResult();
  const total = Math.round((o.rate * o.durationMs) / 1000);
  const interval = 1000 / o.rate;
  const start = performance.now();
  const inflight: Promise<void>[] = [];
  let i = 0;
  while (i < total) {
    const now = performance.now();
    while (i < total && start + i * interval <= now) {
      const due = start + i * interval;
      const body = o.body(i);
      res.sentAt[i] = due;
      res.sent++;
      inflight.push(sendOne(pool, t, body, due).then((x) => record(res, x)));
      i++;
    }
    await new Promise((r) => setTimeout(r, Math.max(1, Math.min(10, start + i * interval - now))));
  }
  await Promise.all(inflight);
  res.elapsedMs = performance.now() - start;
  await pool.close();
  return res;
}

/** Sends one request at a time until one is acked 200 or `timeoutMs` passes; resolves with the time. */
export async function firstAck(
  t: DriverTarget,
  body: () => string,
  o: { start: number; timeoutMs: number; pollMs?: number; alive?: () => boolean },
): Promise<number | null> {
  while (performance.now() - o.start < o.timeoutMs) {
    if (o.alive && !o.alive()) return null;
    const pool = newPool(t.origin, 1);
    const r = await sendOne(pool, t, body(), o.start);
    await pool.destroy();
    if (r.outcome === '200') return performance.now() - o.start;
    await new Promise((res) => setTimeout(res, o.pollMs ?? 5));
  }
  return null;
}

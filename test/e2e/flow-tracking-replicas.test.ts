import { afterAll, beforeAll, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import { OPS, REQUESTER, type Rig, startRig } from '../support/approvals-rig.js';
import { type BotProcess, prepareBotProgram, startBotProcess } from '../support/bot-process.js';
import { databaseForThisSuite, describePg, type FreshDatabase } from '../support/fixtures/store.js';

const FLOWS = 200;
const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;

interface Read {
  flowId: string;
  owner: string;
  from: number;
  to: number;
}

/** The flow reads a bot process logged: which of its trackers read which flow, from when to when. */
function readsOf(proc: BotProcess): Read[] {
  return proc
    .output()
    .split('\n')
    .filter((l) => l.includes('"read a followed flow"'))
    .map((l) => JSON.parse(l) as Read);
}

/** The status line a message body shows (the section that names a status in bold), or what it says. */
function statusIn(blocks: unknown): string {
  const m = /(\*[A-Z]+\*[^"]{0,40})/.exec(JSON.stringify(blocks ?? ''));
  return m ? m[1]! : 'no status';
}

/**
 * For each announcement not at COMPLETED: what it shows, every update the local Slack received for it (when,
 * with what status, and what it answered), and what each bot logged about its flow.
 */
function unfinished(rig: Rig, stuck: LocalMessage[], bots: BotProcess[]): string {
  const lines = bots.flatMap((p, i) =>
    p
      .output()
      .split('\n')
      .map((l) => [i, l] as const),
  );
  return stuck
    .slice(0, 3)
    .map((m) => {
      const flowId = /\(flow (\d+),/.exec(m.text)?.[1] ?? '?';
      const updates = rig.slack.calls
        .filter((c) => c.method === 'chat.update' && c.args.ts === m.ts)
        .map(
          (c) =>
            `    ${new Date(c.at).toISOString()} ${statusIn(c.args.blocks)} → ${c.status} ${String(c.response.ok)}`,
        );
      const logged = lines
        .filter(([, l]) => flowId !== '?' && l.includes(flowId) && !l.includes('"component":"bolt"'))
        .map(([i, l]) => `    bot ${i}: ${l.slice(0, 300)}`);
      const what = flowId === '?' ? `not a flow: "${m.text.slice(0, 200)}"` : `flow ${flowId}`;
      return [`  ${m.ts} shows ${statusIn(m.blocks)} (${what})`, ...updates, ...logged].join('\n');
    })
    .join('\n');
}

/** The bots' warnings and errors, counted by message, with the first reason of each: what a failure needs. */
function warnings(bots: BotProcess[]): string {
  const seen = new Map<string, { n: number; first: string }>();
  for (const line of bots.flatMap((p) => p.output().split('\n'))) {
    let l: { level?: number; msg?: string; err?: string };
    try {
      l = JSON.parse(line) as typeof l;
    } catch {
      continue;
    }
    if ((l.level ?? 0) < 40 && !/response_url|could not post/.test(l.msg ?? '')) continue;
    const key = l.msg ?? '?';
    const had = seen.get(key);
    if (had) had.n++;
    else seen.set(key, { n: 1, first: l.err ?? '' });
  }
  return [...seen].map(([msg, { n, first }]) => `  ${n} × ${msg}${first ? ` (${first})` : ''}`).join('\n');
}

// Two bot processes, as two replicas would run, on one PostgreSQL database, behind a balancer that
// spreads the commands over both. Each follows the flows it leases; a flow is read by one at a time.
describePg('two bot processes following 200 flows on one PostgreSQL database', () => {
  let rig: Rig;
  let db: FreshDatabase;
  databaseForThisSuite((d) => {
    db = d;
  });
  let program: Awaited<ReturnType<typeof prepareBotProgram>>;
  const procs: BotProcess[] = [];
  beforeAll(async () => {
    program = await prepareBotProgram();
    rig = await startRig({
      databaseUrl: db.url,
      flowDelays: { runningAfterMs: 300, completedAfterMs: 2_000 },
    });
    // The service calls get the bot's own bounds, not the rig's short ones: on a machine busy with other
    // work the emulator, in this process, may take seconds to answer one of 200 learns, and this test
    // is about following the flows, not about a service that hangs (a learn refused for that would be
    // a message in the channel that never reaches COMPLETED).
    const { TSAI_REQUEST_TIMEOUT_MS: _short, TSAI_MAX_ATTEMPTS: _once, ...rigEnv } = rig.env();
    const env = {
      ...rigEnv,
      LOG_LEVEL: 'debug',
      TSAI_TRACK_FIRST_POLL: '200ms',
      TSAI_TRACK_MAX_INTERVAL: '1s',
    };
    procs.push(
      ...(await Promise.all([startBotProcess(program.dir, env), startBotProcess(program.dir, env)])),
    );
    for (const p of procs) rig.addBackend(p.port);
  });
  afterAll(async () => {
    for (const p of procs) await p.stop();
    await rig?.close();
    await program?.cleanup();
  });

  it('every message ends, each with exactly one completion notice, and no flow is read by both at once', async () => {
    const name = (i: number) => `replica-flow-${i}`;
    for (let i = 0; i < FLOWS; i += 20) {
      const batch = Array.from({ length: 20 }, (_, j) =>
        rig.slack.sendCommand({
          user: REQUESTER,
          channel: OPS,
          text: `learn workspace=${W} signals=${T}:temperature range="2026-11-20 to 2026-11-21" name=${name(i + j)}`,
        }),
      );
      const acks = await Promise.all(batch);
      expect(acks.every((a) => a.status === 200)).toBe(true);
    }
    const announcements = (): LocalMessage[] =>
      rig.slack
        .messages(OPS)
        .filter(
          (m) =>
            m.user === rig.slack.botUserId &&
            !m.threadTs &&
            /replica-flow-\d+/.test(m.text + JSON.stringify(m.blocks)),
        );
    let progress = 'none announced';
    let stuck: LocalMessage[] = [];
    const ended = await rig.slack
      .waitFor(
        () => {
          const all = announcements();
          const done = all.filter((m) => /\*COMPLETED\* after/.test(JSON.stringify(m.blocks)));
          progress = `${all.length} of ${FLOWS} announced, ${done.length} at COMPLETED`;
          stuck = all.filter((m) => !done.includes(m));
          return all.length === FLOWS && done.length === FLOWS ? all : undefined;
        },
        // 200 flows over two processes: on a machine busy with other work, this takes minutes.
        240_000,
        'every announcement at COMPLETED',
      )
      .catch((e: unknown) => {
        throw new Error(
          `${progress}: ${e instanceof Error ? e.message : String(e)}\nwhat the bots warned of:\n${warnings(procs)}\nthe first not at COMPLETED:\n${unfinished(rig, stuck, procs)}`,
        );
      });
    const notices = (m: LocalMessage) =>
      rig.slack
        .messages(OPS, { threadTs: m.ts })
        .filter(
          (r) => r.threadTs === m.ts && r.user === rig.slack.botUserId && /completed after/.test(r.text),
        );
    await rig.slack.waitFor(
      () => ended.every((m) => notices(m).length >= 1) || undefined,
      60_000,
      'every notice',
    );
    // A last round of reads and notices would show any doubles.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(ended.map((m) => notices(m).length)).toEqual(ended.map(() => 1));
    for (const m of ended) expect(notices(m)[0]!.text).toContain(`<@${REQUESTER}>`);

    const reads = procs.flatMap(readsOf);
    const owners = new Set(reads.map((r) => r.owner));
    expect(owners.size).toBe(2);
    const byFlow = new Map<string, Read[]>();
    for (const r of reads) byFlow.set(r.flowId, [...(byFlow.get(r.flowId) ?? []), r]);
    expect(byFlow.size).toBe(FLOWS);
    for (const list of byFlow.values()) {
      list.sort((a, b) => a.from - b.from);
      for (let i = 1; i < list.length; i++) {
        if (list[i]!.owner !== list[i - 1]!.owner)
          expect(list[i]!.from).toBeGreaterThanOrEqual(list[i - 1]!.to);
      }
    }
  });
});

// The installations phase: the same bot in "Add to Slack" mode with one installation and with 1,000, in
// one process each, installed through the OAuth flow against the local Slack, each installation connected
// to the service by its admin (`/tsai setup`); acks of commands spread over every installation's people
// against the one-installation bot's, typed by as many people of its one workspace (tenants.ts), and the
// memory each installation adds.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { closedLoop, type DriverTarget, type RunResult, slashCommandBody } from './driver.js';
import { type AppProcess, heapReader, procStatusMb, tail } from './procs.js';
import type { ServicesClient } from './services-client.js';
import { ratio, round, summarize } from './stats.js';
import {
  installAdminId,
  installChannelId,
  installMemberId,
  installTeamId,
  oneTeamMemberId,
} from './tenants.js';

export const INSTALL_CLIENT = { clientId: '8080.9090', clientSecret: randomBytes(16).toString('hex') };

/** Concurrencies of the phase: one person at a time, and a busy minute. */
export const INSTALLS_CONCURRENCIES = [1, 50] as const;

export interface InstallsMeasurements {
  installations: number;
  /** How long installing them took through the OAuth flow (ms), a few browsers at once. */
  installMs: number;
  ack: { command: string; concurrency: number; one: number[]; many: number[] }[];
  /** After the rounds, every installation having been spoken to. */
  memory: {
    one: { mainHeapMb: number | null; workerHeapMb: number | null; rssMb: number | null };
    many: { mainHeapMb: number | null; workerHeapMb: number | null; rssMb: number | null };
  };
}

export interface InstallsDeps {
  services: ServicesClient;
  /** Spawns the bot (dist/bot/main.js) with this environment. */
  spawnBot(env: Record<string, string>, tag: string): Promise<AppProcess>;
  signingSecret: string;
  slackApiUrl: string;
  emulatorUrl: string;
  tmp: string;
  logLevel: string;
  installations: number;
  rounds: number;
  requests: Record<(typeof INSTALLS_CONCURRENCIES)[number], number>;
  texts: { help: string; learn: string };
  log(line: string): void;
}

/** Waits for the bot's port (`/healthz`); false when it exits or does not answer within `ms`. */
async function listening(p: AppProcess, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (performance.now() < until && p.alive()) {
    const ok = await fetch(`${p.origin}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

export async function measureInstalls(d: InstallsDeps): Promise<InstallsMeasurements | undefined> {
  const envOf = (tag: string): Record<string, string> => ({
    SLACK_CLIENT_ID: INSTALL_CLIENT.clientId,
    SLACK_CLIENT_SECRET: INSTALL_CLIENT.clientSecret,
    SLACK_STATE_SECRET: randomBytes(16).toString('hex'),
    SLACK_SIGNING_SECRET: d.signingSecret,
    SLACK_API_URL: d.slackApiUrl,
    TSAI_SECRET_KEY: randomBytes(32).toString('base64'),
    TSAI_BASE_URL: d.emulatorUrl,
    // The tenants' admins connect the emulator on this machine, as an on-premises service is allowed.
    TSAI_SERVICE_ALLOWED_ADDRESSES: '127.0.0.1',
    TSAI_DEFAULT_TIMEZONE: 'UTC',
    DATABASE_URL: join(d.tmp, `installs-${tag}.sqlite`),
    LOG_LEVEL: d.logLevel,
    NODE_ENV: 'production',
  });
  const one = await d.spawnBot(envOf('one'), 'installs-one');
  const many = await d.spawnBot(envOf('many'), 'installs-many');
  try {
    for (const p of [one, many])
      if (!(await listening(p, 20_000))) {
        d.log(`installs: ${p.name} did not start; the phase is left out. Log tail:\n${tail(p.logFile)}`);
        return undefined;
      }
    // Tenant 0 is the one-installation bot's; 1 … N the other's: installing again where another bot is
    // installed would replace its installation.
    const tenantsOf = (p: AppProcess) =>
      p === one ? [0] : Array.from({ length: d.installations }, (_, i) => i + 1);
    let installMs = 0;
    for (const p of [one, many]) {
      const started = performance.now();
      const tenants = tenantsOf(p);
      const made = await d.services.install(
        `${p.origin}/slack/install`,
        `${p.origin}/slack/oauth_redirect`,
        tenants.map(installTeamId),
        tenants.map(installAdminId),
      );
      if (p === many) installMs = performance.now() - started;
      const connected = made === tenants.length ? await d.services.setUp(p.origin, tenants) : 0;
      d.log(
        `installs: ${made} of ${tenants.length} installed in ${p.name}, ${connected} connected to the service (${(performance.now() - started).toFixed(0)} ms)`,
      );
      if (connected !== tenants.length) return undefined;
    }
    const target = (p: AppProcess): DriverTarget => ({ origin: p.origin, signingSecret: d.signingSecret });
    const drive = async (
      p: AppProcess,
      text: string,
      concurrency: number,
      total: number,
      untimedFirst: boolean,
    ) => {
      // Request i is typed by person i of the side's N people: a member of tenant 0, or of tenant i.
      const people = Array.from({ length: total }, (_, i) => {
        const k = i % d.installations;
        return p === one
          ? { tenant: 0, user: oneTeamMemberId(k + 1) }
          : { tenant: k + 1, user: installMemberId(k + 1) };
      });
      const issued = await Promise.all(
        people.map((x) => d.services.issue(1, [x.user], installChannelId(x.tenant)).then((r) => r[0]!)),
      );
      return closedLoop(target(p), {
        concurrency,
        total,
        maxMs: 120_000,
        untimedFirst,
        body: (i) =>
          slashCommandBody({
            text,
            user: people[i]!.user,
            channel: installChannelId(people[i]!.tenant),
            teamId: installTeamId(people[i]!.tenant),
            triggerId: issued[i]!.triggerId,
            responseUrl: issued[i]!.responseUrl,
          }),
      });
    };
    // Not measured: the JIT, and every installation spoken to once (its first request reads it from the store).
    for (const p of [one, many])
      for (const text of [d.texts.help, d.texts.learn]) await drive(p, text, 10, d.installations, false);
    await d.services.settle(2500, 120_000);
    const ack: InstallsMeasurements['ack'] = [];
    for (const c of INSTALLS_CONCURRENCIES)
      for (const [command, text] of Object.entries(d.texts)) {
        const row = { command, concurrency: c, one: [] as number[], many: [] as number[] };
        for (let round = 0; round < d.rounds; round++)
          for (const p of round % 2 ? [many, one] : [one, many]) {
            const r: RunResult = await drive(p, text, c, d.requests[c], true);
            (p === one ? row.one : row.many).push(...r.latencies);
            if (r.errors) d.log(`installs: ${r.errors} failed requests (${command} c=${c} ${p.name})`);
            await d.services.settle(2500, 60_000);
          }
        const s = (xs: number[]) => summarize(xs);
        d.log(
          `installs ${command} c=${c}: one p50 ${s(row.one)?.p50.toFixed(2)} p99 ${s(row.one)?.p99.toFixed(2)}; ${d.installations} p50 ${s(row.many)?.p50.toFixed(2)} p99 ${s(row.many)?.p99.toFixed(2)} ms`,
        );
        ack.push(row);
      }
    const memoryOf = async (p: AppProcess) => ({
      ...(await heapReader(p).read()),
      rssMb: procStatusMb(p.pid, 'VmRSS'),
    });
    const memory = { one: await memoryOf(one), many: await memoryOf(many) };
    d.log(
      `installs memory: one ${JSON.stringify(memory.one)}, ${d.installations}: ${JSON.stringify(memory.many)}`,
    );
    return { installations: d.installations, installMs, ack, memory };
  } finally {
    await Promise.allSettled([one.stop(), many.stop()]);
  }
}

interface Pct {
  p50: number | null;
  p99: number | null;
}

export interface InstallsResult {
  installations: number;
  installS: number;
  ack: { command: string; concurrency: number; one: Pct; many: Pct; ratio: Pct }[];
  /** What each installation beyond the first added, in KB: heaps of both threads, and the process's RSS. */
  perInstallationKb: { heap: number | null; rss: number | null };
  memoryMb: InstallsMeasurements['memory'];
}

/** Targets: acks within 1.2× (p50) and 1.5× (p99) of the one-installation bot's. */
export const INSTALLS_TARGETS = { p50: 1.2, p99: 1.5 };

export function installsResult(m: InstallsMeasurements): InstallsResult {
  const pct = (xs: number[]): Pct => {
    const s = summarize(xs);
    return s ? { p50: round(s.p50), p99: round(s.p99) } : { p50: null, p99: null };
  };
  const heap = (x: InstallsMeasurements['memory']['one']) =>
    x.mainHeapMb == null || x.workerHeapMb == null ? null : x.mainHeapMb + x.workerHeapMb;
  const per = (a: number | null, b: number | null) =>
    a == null || b == null ? null : round(((a - b) * 1024) / Math.max(1, m.installations - 1));
  return {
    installations: m.installations,
    installS: round(m.installMs / 1000),
    ack: m.ack.map((a) => {
      const one = pct(a.one);
      const many = pct(a.many);
      return {
        command: a.command,
        concurrency: a.concurrency,
        one,
        many,
        ratio: { p50: ratio(many.p50, one.p50), p99: ratio(many.p99, one.p99) },
      };
    }),
    perInstallationKb: {
      heap: per(heap(m.memory.many), heap(m.memory.one)),
      rss: per(m.memory.many.rssMb, m.memory.one.rssMb),
    },
    memoryMb: m.memory,
  };
}

/** The phase's rows in the printed table. */
export function installsRows(r: InstallsResult): string[][] {
  const fmt = (n: number | null, unit = '') => (n == null ? 'n/a' : `${n}${unit}`);
  const rows: string[][] = [];
  for (const a of r.ack)
    for (const p of ['p50', 'p99'] as const) {
      const q = a.ratio[p];
      rows.push([
        `ack ${a.command} c=${a.concurrency} ${p}, ${r.installations} installations / 1`,
        `${fmt(a.many[p])} / ${fmt(a.one[p], ' ms')}`,
        '',
        fmt(q),
        `≤ ${INSTALLS_TARGETS[p]}×`,
        q == null ? 'n/a' : q <= INSTALLS_TARGETS[p] ? 'ok' : 'MISSED',
      ]);
    }
  rows.push([
    'memory per installation (heap / RSS)',
    `${fmt(r.perInstallationKb.heap)} / ${fmt(r.perInstallationKb.rss, ' KB')}`,
    '',
    '',
    '',
    '',
  ]);
  return rows;
}

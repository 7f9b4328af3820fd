import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { closedLoop, type DriverTarget } from './driver.js';
import type { AppProcess } from './procs.js';
import type { IssuedCommand } from './services-client.js';
import { type Summary, summarize } from './stats.js';

/** Deeply nested JSON, the body most costly to parse: `[[[[…` */
export function nestedBody(bytes: number, form: boolean): Buffer {
  return Buffer.from(form ? `payload=${'%5B'.repeat(Math.floor(bytes / 3))}` : '['.repeat(bytes));
}

/** The two hostile requests, alternating: no signature at all, and a well-formed but wrong one. */
export const FLOOD_BODIES = { unsignedBytes: 4 * 1024 * 1024, falselySignedBytes: 900 * 1024 };

/** `help` acks without and during a flood of unsigned and falsely signed bodies, for one app. */
export interface FloodMeasurements {
  connections: number;
  bodies: typeof FLOOD_BODIES;
  without: Summary | undefined;
  with: Summary | undefined;
  /** What the flooder's requests got: `unsigned 401`, `falsely signed 401`, … or the error of a cut one. */
  flood: Record<string, number>;
}

export interface FloodContext {
  app: AppProcess;
  target: (p: AppProcess) => DriverTarget;
  issue: (n: number) => Promise<IssuedCommand[]>;
  bodies: (issued: IssuedCommand[], text: string) => (i: number) => string;
  log: (line: string) => void;
  rounds: number;
  requests: number;
  /** The flooder's connections: its requests in flight at once. */
  connections: number;
}

const flooderEntry = fileURLToPath(new URL('./flood-main.js', import.meta.url));

/**
 * Signed `help` commands at 10 concurrent, alternating rounds without and with a flood from another
 * process; latencies of each side pooled over the rounds.
 */
export async function measureFlood(c: FloodContext): Promise<FloodMeasurements> {
  const without: number[] = [];
  const during: number[] = [];
  const flood: Record<string, number> = {};
  const acks = async () => {
    const issued = await c.issue(c.requests);
    const r = await closedLoop(c.target(c.app), {
      concurrency: 10,
      total: c.requests,
      maxMs: 60_000,
      body: c.bodies(issued, 'help'),
      untimedFirst: true,
    });
    if (r.errors)
      c.log(`flood phase ${c.app.name}: ${r.errors} signed commands failed ${JSON.stringify(r.outcomes)}`);
    return r.latencies;
  };
  for (let round = 0; round < c.rounds; round++) {
    without.push(...(await acks()));
    const flooder = await startFlooder(c.app.origin, c.connections);
    during.push(...(await acks()));
    for (const [k, n] of Object.entries(await flooder.stop())) flood[k] = (flood[k] ?? 0) + n;
  }
  const m = {
    connections: c.connections,
    bodies: FLOOD_BODIES,
    without: summarize(without),
    with: summarize(during),
    flood,
  };
  c.log(
    `flood ${c.app.name}: help c=10 p50 ${m.without?.p50.toFixed(1)} → ${m.with?.p50.toFixed(1)} ms, p99 ${m.without?.p99.toFixed(1)} → ${m.with?.p99.toFixed(1)} ms; flood ${JSON.stringify(flood)}`,
  );
  return m;
}

async function startFlooder(
  origin: string,
  connections: number,
): Promise<{ stop(): Promise<Record<string, number>> }> {
  const child = spawn(process.execPath, [flooderEntry], {
    env: { PATH: process.env.PATH ?? '', FLOOD_ORIGIN: origin, FLOOD_CONNECTIONS: String(connections) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // Measured once the flood is under way: the flooder says so, then a moment for its connections.
  await new Promise<void>((r) => {
    const check = () => (out.includes('flooding') || child.exitCode !== null ? r() : setTimeout(check, 10));
    check();
  });
  await new Promise((r) => setTimeout(r, 500));
  return {
    async stop() {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
      const last = out.trim().split('\n').pop() ?? '{}';
      try {
        return JSON.parse(last) as Record<string, number>;
      } catch {
        return {};
      }
    },
  };
}

import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A port nothing listens on right now (the OS picks it; the child binds it moments later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface AppProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  port: number;
  origin: string;
  logFile: string;
  /** performance.now() just before spawn. */
  spawnedAt: number;
  alive(): boolean;
  stop(): Promise<void>;
}

/**
 * Spawns `node <entry>` with `env` on a free port (`PORT`), stdout and stderr to `logFile` (a real
 * deployment's log goes to a file or a collector, not back into the load generator).
 */
export async function spawnApp(o: {
  name: string;
  entry: string;
  env: Record<string, string>;
  logFile: string;
  nodeArgs?: string[];
  cwd?: string;
}): Promise<AppProcess> {
  const port = await freePort();
  const fd = openSync(o.logFile, 'a');
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), o.entry], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...o.env, PORT: String(port) },
    stdio: ['ignore', fd, fd],
    cwd: o.cwd,
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${o.name}: could not spawn ${o.entry}`);
  let exited = false;
  const exit = new Promise<void>((r) =>
    child.once('exit', () => {
      exited = true;
      r();
    }),
  );
  return {
    name: o.name,
    child,
    pid: child.pid,
    port,
    origin: `http://127.0.0.1:${port}`,
    logFile: o.logFile,
    spawnedAt,
    alive: () => !exited,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(t);
    },
  };
}

/** A `Vm*` field of /proc/<pid>/status in MB, or null when it cannot be read (not Linux, process gone). */
export function procStatusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * CPU time (user + system, ms) the process has used so far, or null when /proc is not readable. With
 * `mainThreadOnly`, only its main thread's (the one that acks; the bot's command worker is another).
 */
export function procCpuMs(pid: number, mainThreadOnly = false): number | null {
  try {
    return cpuMsOf(
      readFileSync(mainThreadOnly ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8'),
    );
  } catch {
    return null;
  }
}

/** The CPU time (user + system, ms) in a /proc `stat` line of a process or a thread. */
function cpuMsOf(stat: string): number {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 (utime, stime) in clock ticks; Linux uses 100 ticks per second.
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** CPU time (ms) each thread of the process has used so far, by thread ID; empty when /proc is not readable. */
export function threadsCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      out.set(Number(tid), cpuMsOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/**
 * What the threads other than the main one used between two readings: the one that used most in the
 * follow-up stretch (`after` to `settled`: the bot's command worker), and all the others together (V8's
 * helper threads, libuv's pool), each during the acks (`before` to `after`).
 */
export function otherThreadsMs(
  pid: number,
  before: Map<number, number>,
  after: Map<number, number>,
  settled: Map<number, number>,
): { busiest: number; rest: number } {
  // A thread started between two readings used all its CPU between them.
  const used = (from: Map<number, number>, to: Map<number, number>, tid: number) =>
    (to.get(tid) ?? 0) - (from.get(tid) ?? 0);
  let busiestTid: number | undefined;
  for (const tid of settled.keys()) {
    if (tid === pid) continue;
    if (busiestTid === undefined || used(after, settled, tid) > used(after, settled, busiestTid))
      busiestTid = tid;
  }
  let busiest = 0;
  let rest = 0;
  for (const tid of after.keys()) {
    if (tid === pid) continue;
    if (tid === busiestTid) busiest = used(before, after, tid);
    else rest += used(before, after, tid);
  }
  return { busiest, rest };
}

/** Resets the process's peak RSS (VmHWM) to its current RSS (Linux ≥ 4.0); false when not possible. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples VmRSS every `everyMs` and keeps the maximum, for when VmHWM cannot be reset. */
export function rssSampler(pid: number, everyMs = 20): { stop(): number | null } {
  let max: number | null = null;
  const t = setInterval(() => {
    const v = procStatusMb(pid, 'VmRSS');
    if (v != null && (max == null || v > max)) max = v;
  }, everyMs);
  return {
    stop() {
      clearInterval(t);
      return max;
    },
  };
}

export function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Reads the bot's log from where it last stopped, for the "memory usage" lines a SIGUSR2 makes it write. */
export function heapReader(bot: AppProcess): {
  read(): Promise<{ mainHeapMb: number | null; workerHeapMb: number | null }>;
} {
  let offset = 0;
  return {
    async read() {
      const from = offset;
      bot.child.kill('SIGUSR2');
      const mb = (n: unknown) => (typeof n === 'number' ? n / 1024 / 1024 : null);
      let main: number | null = null;
      let worker: number | null = null;
      for (let tries = 0; tries < 40 && (main === null || worker === null); tries++) {
        await new Promise((r) => setTimeout(r, 50));
        const { text, next } = readFrom(bot.logFile, from);
        offset = next;
        for (const line of text.split('\n')) {
          if (!line.includes('"memory usage"')) continue;
          const l = JSON.parse(line) as { thread?: string; memory?: { heapUsed?: number } };
          if (l.thread === 'follow-ups') worker = mb(l.memory?.heapUsed);
          else main = mb(l.memory?.heapUsed);
        }
      }
      return { mainHeapMb: main, workerHeapMb: worker };
    },
  };
}

export function readFrom(file: string, from: number): { text: string; next: number } {
  const size = statSync(file).size;
  if (size <= from) return { text: '', next: from };
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(size - from);
    readSync(fd, buf, 0, buf.length, from);
    const text = buf.toString('utf8');
    // Only whole lines; a line still being written is read next time.
    const whole = text.lastIndexOf('\n') + 1;
    return { text: text.slice(0, whole), next: from + Buffer.byteLength(text.slice(0, whole)) };
  } finally {
    closeSync(fd);
  }
}

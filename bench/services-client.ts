import { type ChildProcess, fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

export type ServicesRequest = { id: number } & (
  | { op: 'issue'; n: number; users: string[]; channel: string }
  | { op: 'settle'; quietMs: number; maxMs: number }
  | { op: 'calls'; method?: string }
  /** New executions of a Workflow Builder step; their `function_executed` bodies, as Slack would send them. */
  | { op: 'functionEvents'; callbackId: string; users: string[]; inputs: Record<string, unknown>[] }
  | { op: 'serviceRequests' }
  | { op: 'reset' }
  /** "Add to Slack" for each of `teams`, as a browser does it, with the bot whose install page is `installUrl`. */
  | { op: 'install'; installUrl: string; redirectUrl: string; teams: string[]; users: string[] }
  /** Each of `tenants` (installs phase) connects its service account through `/tsai setup` with the bot at `botUrl`. */
  | { op: 'setUp'; botUrl: string; tenants: number[] }
  /** The service's added latency and how long its flows take, for the flow-following phase. */
  | { op: 'configure'; latencyMs?: number; flowDelays?: { runningAfterMs: number; completedAfterMs: number } }
);
type Op = ServicesRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export interface ServicesReady {
  ready: true;
  slackUrl: string;
  slackApiUrl: string;
  emulatorUrl: string;
  accountId: string;
  serviceToken: string;
}

export interface IssuedCommand {
  triggerId: string;
  responseUrl: string;
}

export interface ServiceRequest {
  /** The emulator's order of arrival. */
  seq: number;
  method: string;
  path: string;
  status?: number;
  receivedAt: number;
  name?: string;
}

export interface RecordedCall {
  method: string;
  /** Date.now() at the stand-in when the call was handled. */
  at: number;
  triggerId?: string;
  ok: boolean;
  error?: string;
}

/** The stand-in + emulator child process (services.ts), driven over IPC. */
/** The stand-ins' nice value (see `start`). */
const SERVICES_NICE = 10;

export class ServicesClient {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  private constructor(
    private readonly child: ChildProcess,
    readonly info: ServicesReady,
  ) {
    child.on('message', (raw) => {
      const m = raw as { id: number; result?: unknown; error?: string };
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.error) w.reject(new Error(`bench services: ${m.error}`));
      else w.resolve(m.result);
    });
    child.on('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`bench services exited (${code})`));
      this.waiting.clear();
    });
  }

  static async start(o: {
    signingSecret: string;
    botToken: string;
    latencyMs: number;
    /** Workspaces the app can be installed in ("Add to Slack"), and the app's client credentials. */
    installs?: { teams: number; clientId: string; clientSecret: string };
  }): Promise<ServicesClient> {
    const entry = fileURLToPath(new URL('./services.js', import.meta.url));
    const child = fork(entry, [], {
      env: {
        ...process.env,
        BENCH_SIGNING_SECRET: o.signingSecret,
        BENCH_BOT_TOKEN: o.botToken,
        BENCH_SERVICE_LATENCY_MS: String(o.latencyMs),
        ...(o.installs
          ? {
              BENCH_INSTALL_TEAMS: String(o.installs.teams),
              BENCH_CLIENT_ID: o.installs.clientId,
              BENCH_CLIENT_SECRET: o.installs.clientSecret,
            }
          : {}),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // Slack and the service run on other machines in real use. Here they share the CPUs with the apps
    // and the driver, and only the bot's rounds make them work (the bare app calls nothing), so they get
    // a lower priority: their CPU use should not count as the bot's ack latency.
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, SERVICES_NICE);
      } catch {
        // Not permitted: the services run at normal priority, as before.
      }
    }
    const info = await new Promise<ServicesReady>((resolve, reject) => {
      child.once('message', (m) => resolve(m as ServicesReady));
      child.once('exit', (code) => reject(new Error(`bench services exited before ready (${code})`)));
    });
    return new ServicesClient(child, info);
  }

  private call<T>(op: Op): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ ...op, id });
    });
  }

  /** Installs the app in each of `teams`, by the user at the same place in `users`, through the OAuth flow; how many installations were made. */
  install(installUrl: string, redirectUrl: string, teams: string[], users: string[]): Promise<number> {
    return this.call({ op: 'install', installUrl, redirectUrl, teams, users });
  }

  /** Each of `tenants` connects its service account as its admin would, in the bot at `botUrl`; how many did. */
  setUp(botUrl: string, tenants: number[]): Promise<number> {
    return this.call({ op: 'setUp', botUrl, tenants });
  }

  /** Trigger IDs and response URLs the stand-in will honour, round-robin over `users`. */
  issue(n: number, users: string[], channel: string): Promise<IssuedCommand[]> {
    return this.call({ op: 'issue', n, users, channel });
  }

  settle(quietMs: number, maxMs: number): Promise<{ settled: boolean; ms: number }> {
    return this.call({ op: 'settle', quietMs, maxMs });
  }

  calls(method?: string): Promise<{ calls: RecordedCall[]; responses: number }> {
    return this.call(method ? { op: 'calls', method } : { op: 'calls' });
  }

  /**
   * What the emulator received since the last reset (newest 10 000); `receivedAt` is Date.now() there,
   * `name` the body's `name` (a flow's).
   */
  serviceRequests(): Promise<ServiceRequest[]> {
    return this.call({ op: 'serviceRequests' });
  }

  /** One raw JSON body per `inputs`, each a new execution of the step, users taken round-robin. */
  functionEvents(callbackId: string, users: string[], inputs: Record<string, unknown>[]): Promise<string[]> {
    return this.call({ op: 'functionEvents', callbackId, users, inputs });
  }

  /** Changes the service's added latency and its flows' durations (until the next reset). */
  configure(o: {
    latencyMs?: number;
    flowDelays?: { runningAfterMs: number; completedAfterMs: number };
  }): Promise<void> {
    return this.call({ op: 'configure', ...o });
  }

  reset(): Promise<void> {
    return this.call({ op: 'reset' });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.disconnect();
    const t = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(t);
  }
}

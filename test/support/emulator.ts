import { createServiceClient, type ServiceClientOptions } from '../../src/api/index.js';
import {
  type FaultSpec,
  type LoggedRequest,
  type RunningEmulator,
  SEED,
  startEmulator,
} from '../../standins/emulator/index.js';
import { HANG_BOUND_MS } from './patience.js';
import { type NamedClient, named } from './service-calls.js';

export interface Harness {
  emu: RunningEmulator;
  client: NamedClient;
  requests(): Promise<LoggedRequest[]>;
  state(): Promise<Record<string, { id: string; [k: string]: unknown }[]>>;
  /** The flows created since the emulator started: its state's, less the demo data's finished ones. */
  createdFlows(): Promise<{ id: string; [k: string]: unknown }[]>;
  fault(spec: FaultSpec): Promise<void>;
  reset(): Promise<void>;
  /** Any `/_emulator/` control, e.g. `control('POST', 'flow-rules', {...})`; throws unless 2xx. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Raw API call with the right token unless told otherwise. */
  raw(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; json: unknown }>;
  close(): Promise<void>;
}

export async function startHarness(
  clientOptions: Partial<ServiceClientOptions> = {},
  flowDelays = { runningAfterMs: 20, completedAfterMs: 60 },
): Promise<Harness> {
  const emu = await startEmulator({ port: 0, flowDelays });
  const client = named(
    createServiceClient({
      baseUrl: emu.url,
      accountId: emu.accountId,
      token: emu.token,
      retryBaseDelayMs: 20,
      ...clientOptions,
    }),
  );
  const control = emulatorControl(emu.url);
  return {
    emu,
    client,
    requests: async () => (await control('GET', 'requests')) as LoggedRequest[],
    state: async () => (await control('GET', 'state')) as Record<string, { id: string }[]>,
    createdFlows: async () => {
      const seeded = new Set<string>(Object.values(SEED.flows));
      const state = (await control('GET', 'state')) as Record<string, { id: string }[]>;
      return (state.flows ?? []).filter((f) => !seeded.has(f.id));
    },
    fault: async (spec) => void (await control('POST', 'faults', spec)),
    reset: async () => void (await control('POST', 'reset')),
    control,
    raw: async (method, path, body, token = emu.token) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${emu.url}${path}`, {
        method,
        headers,
        body: body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : undefined };
    },
    close: async () => {
      await client.close();
      await emu.close();
    },
  };
}

/** Polls until `check` returns a value (not a timing assertion: the deadline only bounds a hang). */
export async function eventually<T>(check: () => Promise<T | undefined>, deadlineMs = 10_000): Promise<T> {
  const end = Date.now() + Math.max(deadlineMs, HANG_BOUND_MS);
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not reached before the deadline');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Calls the emulator's `/_emulator/` control API (requests, state, faults, reset); throws unless 2xx. */
export function emulatorControl(url: string) {
  return async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${url}/_emulator/${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    if (res.status >= 300)
      throw new Error(`emulator control ${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : ((await res.json()) as unknown);
  };
}

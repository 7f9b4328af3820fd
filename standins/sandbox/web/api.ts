import type { Delivery, LocalSlackSnapshot, LocalUser } from '../../localslack/types.js';

/** The page's only channel to the world: the stand-in's `/_local` control API and the sandbox's own `/_sandbox`. */
export type Snapshot = LocalSlackSnapshot;
export type { Delivery, LocalUser };

export interface SandboxConfig {
  users: LocalUser[];
  defaultUser: string;
  defaultChannel: string;
  command: string;
  usageHint?: string;
  description?: string;
  shortcuts: { name: string; callbackId: string; description?: string }[];
  botUserId: string;
  usergroups: { id: string; handle: string }[];
  /** Whether the emulator's request log can be shown (`/_sandbox/service-requests`). */
  serviceLog: boolean;
  /** Whether the app offers Workflow Builder steps (the manifest's `functions`). */
  workflows: boolean;
  /** Each person's own emulator token by Slack user ID (absent with a real service). */
  serviceIdentities?: Record<string, ServiceIdentity>;
  /** The bot's "Add to Slack" page. */
  installUrl?: string;
  /** A workspace's own service account (an emulator of its own), by team ID, for its admins' `/tsai setup`. */
  workspaceServices?: Record<string, WorkspaceService>;
}

export interface WorkspaceService {
  url: string;
  accountId: string;
  token: string;
}

export interface ServiceIdentity {
  name: string;
  role: string;
  token: string;
}

export interface ServiceRequest {
  seq: number;
  receivedAt: number;
  method: string;
  path: string;
  query?: string;
  body?: unknown;
  /** Whose token made the request; null for none the emulator knows. */
  user?: string | null;
  status?: number;
  fault?: unknown;
}

export class ControlError extends Error {}

async function json<T>(r: Response): Promise<T> {
  const body = (await r.json().catch(() => ({}))) as T & { error?: string };
  if (!r.ok) throw new ControlError(body.error ?? `HTTP ${r.status}`);
  return body;
}

export async function control<T = Delivery>(action: string, args: Record<string, unknown>): Promise<T> {
  const r = await fetch(`/_local/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  return json<T>(r);
}

export async function snapshot(viewer: string): Promise<Snapshot> {
  return json<Snapshot>(await fetch(`/_local/snapshot?viewer=${encodeURIComponent(viewer)}`));
}

export async function config(): Promise<SandboxConfig> {
  return json<SandboxConfig>(await fetch('/_sandbox/config'));
}

export async function serviceRequests(): Promise<ServiceRequest[]> {
  const out = await json<{ requests?: ServiceRequest[] } | ServiceRequest[]>(
    await fetch('/_sandbox/service-requests'),
  );
  return Array.isArray(out) ? out : (out.requests ?? []);
}

/** Calls `fn` on every change the stand-in reports; the browser reconnects by itself. */
export function onChange(fn: (version: number) => void, onState: (connected: boolean) => void): EventSource {
  const es = new EventSource('/_local/events');
  es.onmessage = (e) => {
    try {
      fn((JSON.parse(String(e.data)) as { version: number }).version);
    } catch {
      /* a malformed event is ignored; the next one refreshes */
    }
  };
  es.onopen = () => onState(true);
  es.onerror = () => onState(false);
  return es;
}

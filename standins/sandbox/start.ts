import { join } from 'node:path';
import type { Logger } from '../../src/log.js';
import type { LocalSlack } from '../localslack/index.js';
import type { LocalUser } from '../localslack/types.js';
import { readManifest } from './manifest.js';
import { issueServiceTokens, type ServiceIdentity } from './personas.js';
import { PROJECT_ROOT, type SandboxServer, startSandboxServer } from './server.js';

/**
 * The browser sandbox of `npm start` without Slack configuration: the page server on top of the local
 * Slack stand-in the bot already talks to. Loopback only.
 */
export const SANDBOX_CHANNEL = 'C0OPS';

export interface StartSandboxOptions {
  slack: LocalSlack;
  /** The embedded emulator's base URL: the page then shows what the service received. */
  emulatorUrl?: string;
  /** Default 0 (any free port); `npm start` passes the configured SANDBOX_PORT. */
  port?: number;
  logger?: Logger;
  /** The bot's "Add to Slack" page. */
  installUrl?: string;
  /** Workspaces with a service account of their own (an emulator each), by team ID. */
  workspaceServices?: Record<string, { url: string; accountId: string; token: string }>;
}

export async function startSandbox(o: StartSandboxOptions): Promise<SandboxServer> {
  const manifest = readManifest(join(PROJECT_ROOT, 'manifest.yml'));
  // The stand-in shows the tabs the app's manifest enables, refuses views.publish without a Home tab, lets
  // the bot post in public channels it has not joined only with chat:write.public, and tells the app of
  // mentions and direct messages only as its event subscriptions ask, and shows the assistant pane when
  // the manifest declares one.
  if (manifest.appHome)
    o.slack.configureApp({
      ...manifest.appHome,
      chatWritePublic: manifest.chatWritePublic === true,
      botEvents: manifest.botEvents ?? [],
      assistantView: manifest.assistantView,
    });
  // Workflow Builder offers the steps the manifest declares, and holds their outputs to it.
  if (manifest.functions) o.slack.setFunctions(manifest.functions);
  // Each person's token comes from their workspace's own service (the emulator, or their workspace's).
  const byService = new Map<string, LocalUser[]>();
  for (const person of o.slack.state.users.values()) {
    const url = o.workspaceServices?.[o.slack.state.teamOf(person.id).id]?.url ?? o.emulatorUrl;
    if (url) byService.set(url, [...(byService.get(url) ?? []), person]);
  }
  const serviceIdentities = o.emulatorUrl ? new Map<string, ServiceIdentity>() : undefined;
  for (const [url, people] of byService)
    for (const [id, identity] of await issueServiceTokens(url, people, (problem) => o.logger?.warn(problem)))
      serviceIdentities?.set(id, identity);
  const options = {
    slack: o.slack,
    serviceIdentities,
    defaultUser: 'U0ALICE',
    defaultChannel: o.slack.state.channels.has(SANDBOX_CHANNEL) ? SANDBOX_CHANNEL : undefined,
    emulatorUrl: () => o.emulatorUrl,
    manifest,
    ...(o.installUrl ? { installUrl: o.installUrl } : {}),
    ...(o.workspaceServices ? { workspaceServices: o.workspaceServices } : {}),
  };
  const port = o.port ?? 0;
  try {
    return await startSandboxServer({ ...options, port });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw e;
    o.logger?.warn({ port }, 'sandbox port is in use; the sandbox page uses a free port instead');
    return startSandboxServer({ ...options, port: 0 });
  }
}

import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { FunctionDefinition } from '../localslack/functions.js';

/** What the sandbox shows of the app's manifest: its slash command, global shortcuts and App Home tabs. */
export interface ManifestSummary {
  command: string;
  description?: string;
  usageHint?: string;
  shortcuts: { name: string; callbackId: string; description?: string }[];
  /**
   * `features.app_home`, when a manifest was read: Slack's Home tab is off unless enabled, Messages on (and
   * open to typing unless `messages_tab_read_only_enabled`).
   */
  appHome?: { homeTabEnabled: boolean; messagesTabEnabled: boolean; messagesTabReadOnly: boolean };
  /** `settings.event_subscriptions.bot_events`: the events Slack sends the app. */
  botEvents?: string[];
  /** Whether the bot scopes include `chat:write.public` (posting in public channels it has not joined). */
  chatWritePublic?: boolean;
  /** The Workflow Builder steps the app offers (`functions`), by callback_id. */
  functions?: Record<string, FunctionDefinition>;
  /** `features.assistant_view`: the app's assistant pane, with its description and suggested prompts. */
  assistantView?: { description: string; suggestedPrompts: { title: string; message: string }[] };
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Reads `manifest.yml`; a missing or unreadable file gives the defaults (`/tsai`, no shortcuts). */
export function readManifest(path: string): ManifestSummary {
  const fallback: ManifestSummary = { command: '/tsai', shortcuts: [] };
  if (!existsSync(path)) return fallback;
  let doc: unknown;
  try {
    doc = parse(readFileSync(path, 'utf8'));
  } catch {
    return fallback;
  }
  const features = ((doc as Record<string, unknown> | null)?.features ?? {}) as Record<string, unknown>;
  const commands = Array.isArray(features.slash_commands)
    ? (features.slash_commands as Record<string, unknown>[])
    : [];
  const cmd = commands[0] ?? {};
  const appHome = (features.app_home ?? {}) as Record<string, unknown>;
  const oauth = ((doc as Record<string, unknown> | null)?.oauth_config ?? {}) as {
    scopes?: { bot?: unknown };
  };
  const botScopes = Array.isArray(oauth.scopes?.bot) ? (oauth.scopes.bot as unknown[]) : [];
  const functions = (doc as Record<string, unknown> | null)?.functions;
  const shortcuts = Array.isArray(features.shortcuts)
    ? (features.shortcuts as Record<string, unknown>[])
    : [];
  return {
    command: str(cmd.command) ?? fallback.command,
    description: str(cmd.description),
    usageHint: str(cmd.usage_hint),
    shortcuts: shortcuts
      .filter((s) => s.type === 'global' && typeof s.callback_id === 'string' && typeof s.name === 'string')
      .map((s) => ({
        name: String(s.name),
        callbackId: String(s.callback_id),
        description: str(s.description),
      })),
    appHome: {
      homeTabEnabled: appHome.home_tab_enabled === true,
      messagesTabEnabled: appHome.messages_tab_enabled !== false,
      messagesTabReadOnly: appHome.messages_tab_read_only_enabled === true,
    },
    botEvents: botEventsOf(doc),
    chatWritePublic: botScopes.includes('chat:write.public'),
    ...assistantViewOf(features.assistant_view),
    ...(isRecord(functions) ? { functions: functions as Record<string, FunctionDefinition> } : {}),
  };
}

/** The pane as the manifest declares it; nothing when it declares none. */
function assistantViewOf(view: unknown): Pick<ManifestSummary, 'assistantView'> {
  if (!isRecord(view) || typeof view.assistant_description !== 'string') return {};
  const prompts = Array.isArray(view.suggested_prompts) ? view.suggested_prompts : [];
  return {
    assistantView: {
      description: view.assistant_description,
      suggestedPrompts: prompts
        .filter(isRecord)
        .filter((p) => typeof p.title === 'string' && typeof p.message === 'string')
        .map((p) => ({ title: String(p.title), message: String(p.message) })),
    },
  };
}

function botEventsOf(doc: unknown): string[] {
  const settings = isRecord(doc) && isRecord(doc.settings) ? doc.settings : {};
  const subscriptions = isRecord(settings.event_subscriptions) ? settings.event_subscriptions : {};
  const events = subscriptions.bot_events;
  return Array.isArray(events) ? events.filter((e): e is string => typeof e === 'string') : [];
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMAND_NAME } from '../src/slack/command/name.js';
import { FEATURES } from '../src/slack/features.js';
import { BASE_SCOPES, WEB_API_METHODS } from '../src/slack/scopes.js';

interface Manifest {
  features: {
    app_home?: { home_tab_enabled?: boolean; messages_tab_enabled?: boolean };
    slash_commands: {
      command: string;
      url?: string;
      description: string;
      usage_hint?: string;
      should_escape?: boolean;
    }[];
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    interactivity: { is_enabled: boolean; request_url?: string; message_menu_options_url?: string };
    event_subscriptions?: { request_url?: string; bot_events?: string[] };
    socket_mode_enabled?: boolean;
  };
  display_information: { name: string; description?: string };
}

const manifest = parse(readFileSync(new URL('../manifest.yml', import.meta.url), 'utf8')) as Manifest;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Web API methods called through a client in the bot's own code: `client.users.info(`, `client.chat.postMessage(`… */
function calledMethods(): Set<string> {
  const found = new Set<string>();
  for (const file of sourceFiles(new URL('../src', import.meta.url).pathname)) {
    if (file.includes('/localslack/') || file.includes('/emulator/')) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bclient\s*\.\s*([a-z]+)\s*\.\s*([a-zA-Z]+(?:\.[a-zA-Z]+)?)\s*\(/g)) {
      found.add(`${m[1]}.${m[2]}`);
    }
  }
  return found;
}

describe('manifest.yml', () => {
  it('declares the /tsai command the code registers, escaped, with description and usage hint', () => {
    const commands = manifest.features.slash_commands;
    expect(commands.map((c) => c.command)).toEqual([COMMAND_NAME]);
    const tsai = commands[0]!;
    expect(tsai.should_escape).toBe(true);
    expect(tsai.description.length).toBeGreaterThan(0);
    expect(tsai.usage_hint?.length ?? 0).toBeLessThanOrEqual(1000);
    expect(tsai.url).toMatch(/^https:\/\/.+\/slack\/events$/);
  });

  it('has interactivity on, pointing at the same endpoint, type-ahead options included', () => {
    const { interactivity } = manifest.settings;
    expect(interactivity.is_enabled).toBe(true);
    expect(interactivity.request_url).toMatch(/^https:\/\/.+\/slack\/events$/);
    expect(interactivity.message_menu_options_url).toBe(interactivity.request_url);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it('subscribes to exactly the events the code handles, at the same endpoint', () => {
    // Every listener is registered from the features' declarations: an event is handled when one matches it.
    const eventListeners = FEATURES.flatMap((f) => f.listeners).filter((l) => l.match.route === 'events');
    const subscribed = manifest.settings.event_subscriptions?.bot_events ?? [];
    const handled = new Set(subscribed.filter((e) => eventListeners.some((l) => l.match.ids.test(e))));
    expect(subscribed).toEqual([...handled]);
    expect(handled).toEqual(new Set(['app_home_opened', 'function_executed']));
    for (const l of eventListeners) expect(subscribed.some((e) => l.match.ids.test(e))).toBe(true);
    expect(manifest.settings.event_subscriptions?.request_url).toBe(
      manifest.settings.interactivity.request_url,
    );
  });

  it('enables the Home tab the bot publishes, and keeps the Messages tab its direct messages use', () => {
    expect(manifest.features.app_home).toEqual({ home_tab_enabled: true, messages_tab_enabled: true });
  });

  it('asks for exactly the scopes of the Web API methods the code calls', () => {
    const called = calledMethods();
    expect(called.size).toBeGreaterThan(0);
    for (const method of called)
      expect(Object.keys(WEB_API_METHODS), `${method} missing in scopes.ts`).toContain(method);
    const needed = new Set([
      ...BASE_SCOPES,
      ...Object.values(WEB_API_METHODS).filter((s): s is string => s !== null),
    ]);
    expect(new Set(manifest.oauth_config.scopes.bot)).toEqual(needed);
  });

  it('stays within Slack manifest limits', () => {
    expect(manifest.display_information.name.length).toBeLessThanOrEqual(35);
    expect(manifest.display_information.description?.length ?? 0).toBeLessThanOrEqual(140);
  });
});

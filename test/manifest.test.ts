import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMANDS } from '../src/core/grammar/commands.js';
import { type AnyEntry, REGISTRY } from '../src/core/operations/registry/index.js';
import { commandHead } from '../src/slack/command/manifest.js';
import { COMMAND_NAME } from '../src/slack/command/name.js';
import { type Feature, onEvents } from '../src/slack/feature.js';
import { everyFeature } from '../src/slack/features.js';
import { formShortcuts } from '../src/slack/forms/manifest.js';
import { formOfShortcut, SHORTCUT_CALLBACK } from '../src/slack/forms/views/ids.js';
import { generateManifest } from '../src/slack/manifest/generate.js';
import { WEB_API_METHODS } from '../src/slack/scopes.js';
import { declaredMajor, manifestProblems } from './support/manifest-schema/index.js';

interface Manifest {
  features: {
    app_home?: {
      home_tab_enabled?: boolean;
      messages_tab_enabled?: boolean;
      messages_tab_read_only_enabled?: boolean;
    };
    slash_commands: {
      command: string;
      url?: string;
      description: string;
      usage_hint?: string;
      should_escape?: boolean;
    }[];
    shortcuts?: { name: string; type: string; callback_id: string; description: string }[];
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    interactivity: { is_enabled: boolean; request_url?: string; message_menu_options_url?: string };
    event_subscriptions?: { request_url?: string; bot_events?: string[] };
    socket_mode_enabled?: boolean;
  };
  display_information: { name: string; description?: string };
}

const FEATURES = await everyFeature();
const FILE = new URL('../manifest.yml', import.meta.url);
const generated = await generateManifest();
// `npm run manifest`: the file written anew from the code, then held to it like any other run.
if (process.env.UPDATE_MANIFEST === '1' && readFileSync(FILE, 'utf8') !== generated.text)
  writeFileSync(FILE, generated.text);
const text = readFileSync(FILE, 'utf8');
const manifest = parse(text) as Manifest;

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
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bclient\s*\.\s*([a-z]+)\s*\.\s*([a-zA-Z]+(?:\.[a-zA-Z]+)?)\s*\(/g)) {
      found.add(`${m[1]}.${m[2]}`);
    }
  }
  return found;
}

// biome-ignore lint/suspicious/noExplicitAny: a manifest changed by path
type Loose = Record<string, any>;
const eventListeners = FEATURES.flatMap((f) => f.listeners).filter((l) => l.match.route === 'events');

/** The features, with the forms' shortcuts taken from `entries` instead of the registry. */
const withFormsOf = (entries: readonly AnyEntry[]): Feature[] =>
  FEATURES.map((f) =>
    f.name === 'forms' ? { ...f, manifest: async () => ({ shortcuts: formShortcuts(entries) }) } : f,
  );

describe('manifest.yml', () => {
  it('is what the code declares, comments included (`npm run manifest` writes it anew)', () => {
    expect(text).toBe(generated.text);
    expect(manifest).toEqual(generated.manifest);
  });

  it("passes Slack's published schema for the major version it declares (2)", () => {
    expect(declaredMajor(generated.manifest)).toBe(2);
    expect(manifestProblems(manifest as unknown as Record<string, unknown>)).toEqual([]);
  });

  it('is refused, as Slack would refuse it, when it breaks one of Slack’s rules', () => {
    const broken = (change: (m: Loose) => void) => {
      const m = structuredClone(generated.manifest) as Loose;
      change(m);
      return manifestProblems(m);
    };
    // Version 2's function parameters under a manifest that declares version 1 (or none).
    expect(broken((m) => (m._metadata.major_version = 1))).toContainEqual(
      expect.stringMatching(/^\/functions\/tsai_learn\/input_parameters/),
    );
    expect(broken((m) => delete m._metadata)).not.toEqual([]);
    expect(broken((m) => (m.features.shortcuts[0].name = 'Score with an anomaly model'))).toEqual([
      '/features/shortcuts/0/name: must NOT have more than 24 characters',
    ]);
    expect(
      broken((m) => {
        m.features.shortcuts = Array.from({ length: 11 }, (_, i) => ({
          ...m.features.shortcuts[0],
          callback_id: `tsai_shortcut_${i}`,
        }));
      }),
    ).toEqual(['/features/shortcuts: must NOT have more than 10 items']);
    expect(broken((m) => (m.features.shortcuts[0].description = 'd'.repeat(151)))).not.toEqual([]);
    expect(broken((m) => (m.features.slash_commands[0].usage_hint = 'u'.repeat(1001)))).not.toEqual([]);
    expect(broken((m) => (m.display_information.long_description = 'Too short.'))).not.toEqual([]);
    expect(
      broken((m) => (m.functions.tsai_learn.input_parameters.properties.range.type = 'text')),
    ).not.toEqual([]);
    expect(broken((m) => (m.settings.interactivity.request_url = 'slack/events'))).not.toEqual([]);
  });

  it('offers every form that declares a shortcut, named as its form is titled, opening that form', () => {
    const offered = manifest.features.shortcuts ?? [];
    expect(offered.map((s) => s.callback_id).sort()).toEqual(Object.values(SHORTCUT_CALLBACK).sort());
    expect(offered.length).toBeGreaterThan(0);
    for (const s of offered) {
      expect(s.type).toBe('global');
      const form = REGISTRY.find((e) => e.form?.id === formOfShortcut(s.callback_id))?.form;
      expect(form?.shortcut, s.callback_id).toBe(true);
      expect(s.name).toBe(form?.title);
    }
  });

  it('fails for a form whose shortcut Slack would not offer: a name over 24 characters, over 10 shortcuts', async () => {
    const shortcut = REGISTRY.find((e) => e.form?.shortcut)!;
    const longTitle = { ...shortcut, form: { ...shortcut.form!, title: 'Score with an anomaly model' } };
    const tooLong = await generateManifest(withFormsOf([longTitle]));
    expect(manifestProblems(tooLong.manifest)).toEqual([
      '/features/shortcuts/0/name: must NOT have more than 24 characters',
    ]);
    const many = Array.from({ length: 11 }, (_, i) => ({
      ...shortcut,
      form: { ...shortcut.form!, id: `form-${i}` },
    }));
    expect(manifestProblems((await generateManifest(withFormsOf(many))).manifest)).toEqual([
      '/features/shortcuts: must NOT have more than 10 items',
    ]);
  });

  it('declares the /tsai command the code registers, escaped, described from the command table', () => {
    const commands = manifest.features.slash_commands;
    expect(commands.map((c) => c.command)).toEqual([COMMAND_NAME]);
    const tsai = commands[0]!;
    expect(tsai.should_escape).toBe(true);
    expect(tsai.url).toMatch(/^https:\/\/.+\/slack\/events$/);
    for (const e of REGISTRY) expect(tsai.description).toContain(commandHead(`/tsai ${e.command.words[0]}`));
    expect(tsai.usage_hint?.startsWith('help [command] | ')).toBe(true);
    for (const c of COMMANDS) expect(tsai.usage_hint).toContain(commandHead(c.usage));
    expect(tsai.usage_hint).toContain('live start/stop');
  });

  it('has interactivity on, pointing at the same endpoint, type-ahead options included', () => {
    const { interactivity } = manifest.settings;
    expect(interactivity.is_enabled).toBe(true);
    expect(interactivity.request_url).toMatch(/^https:\/\/.+\/slack\/events$/);
    expect(interactivity.message_menu_options_url).toBe(interactivity.request_url);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it('subscribes to exactly the events the listeners declare, each answered by its listener', () => {
    const subscribed = manifest.settings.event_subscriptions?.bot_events ?? [];
    const declared = eventListeners.flatMap((l) => (l.match.subscribes ?? []).map((e) => e.name));
    expect(subscribed).toEqual([...new Set(declared)]);
    expect(subscribed).toEqual(
      expect.arrayContaining(['app_home_opened', 'function_executed', 'app_mention', 'message.im']),
    );
    for (const l of eventListeners) {
      expect(l.match.subscribes?.length).toBeGreaterThan(0);
      for (const e of l.match.subscribes ?? []) expect(l.match.ids.test(e.name.split('.')[0]!)).toBe(true);
    }
    expect(manifest.settings.event_subscriptions?.request_url).toBe(
      manifest.settings.interactivity.request_url,
    );
    // A subscription names its event type before a dot: `message.im` is answered as a `message` event.
    expect(onEvents({ name: 'message.im', why: 'x' }).ids.test('message')).toBe(true);
  });

  it('refuses to generate a listener of events that subscribes to none, or features that disagree', async () => {
    const silent: Feature = {
      name: 'silent',
      listeners: [{ match: { route: 'events', ids: /^team_join$/ }, ack: async () => {} }],
    };
    await expect(generateManifest([...FEATURES, silent])).rejects.toThrow(/silent feature listens to events/);
    const offline: Feature = {
      name: 'offline',
      listeners: [],
      manifest: async () => ({ settings: { set: { org_deploy_enabled: false }, why: 'x' } }),
    };
    await expect(generateManifest([...FEATURES, offline])).rejects.toThrow(/org_deploy_enabled/);
  });

  it('enables the Home tab the bot publishes, and a Messages tab people can type commands in', () => {
    expect(manifest.features.app_home).toEqual({
      home_tab_enabled: true,
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: false,
    });
  });

  it('asks for exactly the scopes of the Web API methods the code calls, the features and their events', async () => {
    const called = calledMethods();
    expect(called.size).toBeGreaterThan(0);
    for (const method of called)
      expect(Object.keys(WEB_API_METHODS), `${method} missing in scopes.ts`).toContain(method);
    const parts = await Promise.all(FEATURES.map(async (f) => (await f.manifest?.()) ?? {}));
    const needed = new Set([
      ...parts.flatMap((p) => (p.scopes ?? []).map((s) => s.scope)),
      ...eventListeners.flatMap((l) => (l.match.subscribes ?? []).flatMap((e) => (e.scope ? [e.scope] : []))),
      ...Object.values(WEB_API_METHODS).filter((s): s is string => s !== null),
    ]);
    expect(new Set(manifest.oauth_config.scopes.bot)).toEqual(needed);
    expect(needed).toEqual(
      new Set([
        'commands',
        'chat:write',
        'chat:write.public',
        'users:read',
        'usergroups:read',
        'app_mentions:read',
        'im:history',
        'channels:read',
        'groups:read',
        'reactions:write',
        'assistant:write',
      ]),
    );
  });
});

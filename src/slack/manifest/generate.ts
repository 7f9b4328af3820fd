import type { Feature } from '../feature.js';
import { everyFeature } from '../features.js';
import { EVENTS_PATH, type Route } from '../routes.js';
import { METHOD_SCOPE_USES, WEB_API_METHODS } from '../scopes.js';
import {
  BASE,
  BASE_SETTINGS,
  BOT_USER,
  DISPLAY_INFORMATION,
  MAJOR_VERSION,
  PLACEHOLDER_ORIGIN,
} from './base.js';
import type { AppHome, BotEvent, ManifestFunction, ManifestPart, Settings } from './part.js';
import { type Path, render } from './render.js';

/**
 * manifest.yml, generated from the code: the app's own part (base.ts), each feature's part
 * (`Feature.manifest`: its slash command, shortcuts, steps, scopes and settings), the bot events its
 * listeners subscribe to (`onEvents`), the scopes of the Web API methods it calls (scopes.ts), and
 * interactivity as its listeners need it. Each declaration's why is written as a comment above it.
 */

export interface GeneratedManifest {
  /** The manifest as Slack reads it. */
  manifest: Record<string, unknown>;
  /** The file's text: the same manifest, with why beside each declaration. */
  text: string;
}

/** Requests Slack sends to the interactivity URL. */
const INTERACTIVE: readonly Route[] = ['actions', 'shortcuts', 'viewSubmissions', 'viewClosures', 'options'];

/** The parts of the manifest, each with whose it is (for what a conflict says). */
interface Owned {
  owner: string;
  part: ManifestPart;
}

/** Sets `keys` into `into`, refusing a key two owners set apart. */
function merge<T extends object>(
  into: Partial<T>,
  keys: T,
  owner: string,
  owners: Map<string, string>,
): void {
  for (const [k, v] of Object.entries(keys)) {
    const had = (into as Record<string, unknown>)[k];
    if (had !== undefined && had !== v)
      throw new Error(`manifest: ${owners.get(k)} sets ${k} to ${String(had)}, ${owner} to ${String(v)}`);
    (into as Record<string, unknown>)[k] = v;
    owners.set(k, owner);
  }
}

/** The bot events the features' listeners subscribe to; an events listener that names none is a mistake. */
function botEvents(features: readonly Feature[]): BotEvent[] {
  const byName = new Map<string, BotEvent>();
  for (const f of features)
    for (const l of f.listeners) {
      if (l.match.route !== 'events') continue;
      if (!l.match.subscribes?.length)
        throw new Error(
          `manifest: the ${f.name} feature listens to events but subscribes to none (onEvents)`,
        );
      for (const e of l.match.subscribes) {
        const had = byName.get(e.name);
        byName.set(e.name, had ? { ...had, why: `${had.why}; ${e.why}` } : e);
      }
    }
  return [...byName.values()];
}

/** Every bot scope, with why: the features' own, their events', and the Web API methods'. */
function scopes(parts: readonly Owned[], events: readonly BotEvent[]): Map<string, string[]> {
  const whys = new Map<string, string[]>();
  const add = (scope: string, why: string) => whys.set(scope, [...(whys.get(scope) ?? []), why]);
  for (const { part } of parts) for (const s of part.scopes ?? []) add(s.scope, s.why);
  for (const e of events) if (e.scope) add(e.scope, `${e.name} events: ${e.why}`);
  const methods = new Map<string, string[]>();
  for (const [method, scope] of Object.entries(WEB_API_METHODS))
    if (scope) methods.set(scope, [...(methods.get(scope) ?? []), method]);
  for (const [scope, list] of methods) {
    const use = METHOD_SCOPE_USES[scope];
    if (!use) throw new Error(`manifest: src/slack/scopes.ts does not say what ${scope} is for`);
    add(scope, `${list.join(' / ')}: ${use}`);
  }
  return whys;
}

/**
 * The app's own conversations with a person: its App Home tabs, set by several features (one key each),
 * and the assistant pane, which one feature at most declares.
 */
function conversations(
  parts: readonly Owned[],
  why: (path: Path, text: string) => void,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const appHome: AppHome = {};
  const appHomeOwners = new Map<string, string>();
  const homeWhys: string[] = [];
  for (const { owner, part } of parts)
    if (part.appHome) {
      merge(appHome, part.appHome.set, owner, appHomeOwners);
      homeWhys.push(part.appHome.why);
    }
  if (Object.keys(appHome).length) {
    out.app_home = appHome;
    why(['features', 'app_home'], homeWhys.join('\n'));
  }
  const views = parts.filter(({ part }) => part.assistantView);
  if (views.length > 1)
    throw new Error(`manifest: ${views.map((v) => v.owner).join(' and ')} both declare the assistant view`);
  const view = views[0]?.part.assistantView;
  if (view) {
    out.assistant_view = view.set;
    why(['features', 'assistant_view'], view.why);
  }
  return out;
}

/**
 * The manifest of the app the code is, with the comments of the file (`origin`: the bot's address): of
 * every feature, whatever one deployment runs.
 */
export async function generateManifest(
  features?: readonly Feature[],
  origin = PLACEHOLDER_ORIGIN,
): Promise<GeneratedManifest> {
  return manifestOf(features ?? (await everyFeature()), origin);
}

async function manifestOf(features: readonly Feature[], origin: string): Promise<GeneratedManifest> {
  const url = `${origin}${EVENTS_PATH}`;
  const parts: Owned[] = [
    ...(await Promise.all(
      features.map(async (f) => ({ owner: `the ${f.name} feature`, part: (await f.manifest?.()) ?? {} })),
    )),
    { owner: 'the app', part: BASE },
  ];
  const comments: { path: Path; why: string }[] = [];
  const why = (path: Path, text: string) => comments.push({ path, why: text });

  const features_: Record<string, unknown> = { bot_user: BOT_USER };
  const commands = parts.flatMap(({ part }) => part.slashCommands ?? []);
  if (commands.length) {
    features_.slash_commands = commands.map((c) => ({
      command: c.command,
      url,
      description: c.description,
      usage_hint: c.usage_hint,
      should_escape: c.should_escape,
    }));
    why(
      ['features', 'slash_commands'],
      'Its description names the operations of the registry; its usage hint, every command of the command table.',
    );
  }
  const shortcuts = parts.flatMap(({ part }) => part.shortcuts ?? []);
  if (shortcuts.length) {
    features_.shortcuts = shortcuts.map((s) => ({
      name: s.name,
      type: 'global',
      callback_id: s.callback_id,
      description: s.description,
    }));
    why(
      ['features', 'shortcuts'],
      'Global shortcuts (the ⚡ menu): each opens the form of an operation whose entry says `shortcut: true`, named as the form is titled.',
    );
  }
  Object.assign(features_, conversations(parts, why));

  const events = botEvents(features);
  const scopeWhys = scopes(parts, events);
  const oauth: Record<string, unknown> = {};
  const redirects = parts.flatMap(({ part }) => part.redirectPaths ?? []);
  if (redirects.length) {
    oauth.redirect_urls = redirects.flatMap((r) => r.set.map((p) => `${origin}${p}`));
    why(['oauth_config', 'redirect_urls'], redirects.map((r) => r.why).join('\n'));
  }
  oauth.scopes = { bot: [...scopeWhys.keys()] };
  [...scopeWhys.values()].forEach((w, i) => {
    why(['oauth_config', 'scopes', 'bot', i], w.join('\n'));
  });

  const settings: Record<string, unknown> = {};
  if (events.length) {
    settings.event_subscriptions = { request_url: url, bot_events: events.map((e) => e.name) };
    events.forEach((e, i) => {
      why(['settings', 'event_subscriptions', 'bot_events', i], `${e.name}: ${e.why}`);
    });
  }
  const routes = new Set(features.flatMap((f) => f.listeners.map((l) => l.match.route)));
  const interactive = INTERACTIVE.some((r) => routes.has(r));
  settings.interactivity = {
    is_enabled: interactive,
    ...(interactive ? { request_url: url } : {}),
    ...(routes.has('options') ? { message_menu_options_url: url } : {}),
  };
  if (routes.has('options'))
    why(
      ['settings', 'interactivity', 'message_menu_options_url'],
      "the forms' type-ahead fields ask the bot for options (block_suggestion) here",
    );
  const needed: Settings = {};
  const settingOwners = new Map<string, string>();
  for (const { owner, part } of parts)
    if (part.settings) {
      const first = Object.keys(part.settings.set).find((k) => !settingOwners.has(k));
      merge(needed, part.settings.set, owner, settingOwners);
      if (first) why(['settings', first], part.settings.why);
    }
  Object.assign(settings, needed, BASE_SETTINGS);

  const functions: Record<string, ManifestFunction> = {};
  for (const { owner, part } of parts)
    for (const [id, f] of Object.entries(part.functions ?? {})) {
      if (functions[id]) throw new Error(`manifest: ${owner} declares the function ${id} again`);
      functions[id] = f;
    }

  const manifest: Record<string, unknown> = {
    _metadata: { major_version: MAJOR_VERSION, minor_version: 1 },
    display_information: DISPLAY_INFORMATION,
    features: features_,
    oauth_config: oauth,
    settings,
    ...(Object.keys(functions).length ? { functions } : {}),
  };
  if (Object.keys(functions).length)
    why(
      ['functions'],
      'Workflow Builder steps: one per operation that hands something on, its inputs from its arguments and ' +
        'its outputs from what it yields (src/core/workflows/steps.ts).',
    );
  return { manifest, text: render(manifest, comments) };
}

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { followUpsOf, routesOf } from '../../src/slack/feature.js';
import { everyFeature, featuresOf } from '../../src/slack/features.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SLACK = join(ROOT, 'src/slack');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every static import and re-export of a file (type-only ones too), resolved to a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms)].map((m) => m[1]!);
  return specs.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s).replace(/\.js$/, '.ts'));
}

const files = sourceFiles(SLACK);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const rel = (f: string) => relative(SLACK, f);
const FEATURE_DIRS = ['approvals', 'command', 'flows', 'forms', 'home', 'mentions', 'plain', 'typeahead'];
const featureOf = (f: string) => FEATURE_DIRS.find((d) => rel(f).startsWith(`${d}/`));

describe('the Slack surface, as its files import each other', () => {
  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open')
        return void cycles.push([...path.slice(path.indexOf(f)), f].map(rel).join(' -> '));
      state.set(f, 'open');
      for (const to of graph.get(f) ?? []) if (graph.has(to)) visit(to, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of files) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it('reaches another feature only through its index', () => {
    const reaching: string[] = [];
    for (const [f, imports] of graph) {
      const from = featureOf(f);
      for (const to of imports) {
        const feature = featureOf(to);
        if (feature && from && feature !== from && rel(to) !== `${feature}/index.ts`)
          reaching.push(`${rel(f)} -> ${rel(to)}`);
      }
    }
    expect(reaching).toEqual([]);
  });

  it('reaches the layers below only through core; only the composition (bot.ts) opens the store and the client', () => {
    const src = join(ROOT, 'src');
    // The counters are, like the log, written where the work happens; their exposure is not the surface's.
    // The HTTP client is a tool too: the surface posts replies to Slack with the one the service client uses.
    // The worker thread reports its memory in the same words as the acking thread (memory.ts).
    // So are the traces' spans (tracing/trace.ts); the store's are made where it is composed.
    const allowed = [
      'core/',
      'slack/',
      'log.ts',
      'http.ts',
      'memory.ts',
      'metrics/metrics.ts',
      'tracing/trace.ts',
      'wire/',
    ];
    const composition = ['config.ts', 'store/', 'api/', 'tracing/store.ts'];
    const outside = [...graph].flatMap(([f, imports]) =>
      imports
        .map((i) => relative(src, i))
        .filter((i) => !allowed.some((a) => i.startsWith(a)))
        .filter((i) => !(rel(f) === 'bot.ts' && composition.some((c) => i.startsWith(c))))
        // The worker thread starts its own tracer, as the acking thread's start-up does.
        .filter((i) => !(rel(f) === 'runtime/worker-main.ts' && i === 'tracing/start.ts'))
        .map((i) => `${rel(f)} -> ${i}`),
    );
    expect(outside).toEqual([]);
  });
});

const FEATURES = await everyFeature();

describe('the features', () => {
  it('have a folder each, declared in the one list', () => {
    expect(FEATURES.map((f) => f.name)).toEqual([
      'command',
      'forms',
      'type-ahead',
      'approvals',
      'flows',
      'home',
      'identity',
      'assistant',
      'mentions',
      'plain',
      'schedules',
      'workflows',
      'install',
      'setup',
    ]);
  });

  it('follow up every kind of job, each in one place', () => {
    expect([...followUpsOf(FEATURES).keys()].sort()).toEqual([
      'approval-click',
      'approval-reject',
      'assistant-message',
      'assistant-thread',
      'command',
      'direct-message',
      'flow-next',
      'form-open',
      'form-range',
      'form-reopen',
      'form-submitted',
      'home-decision',
      'home-opened',
      'identity-connected',
      'identity-disconnect',
      'identity-open',
      'install-removed',
      'mention',
      'plain-other',
      'plain-run',
      'schedule-decision',
      'schedule-repeat-create',
      'schedule-repeat-open',
      'setup-changed',
      'setup-open',
      'step-executed',
    ]);
    expect(() => followUpsOf([...FEATURES, FEATURES[0]!])).toThrow(/two follow-ups for the job kind command/);
  });

  it('run as the configuration says: "Add to Slack" and its setup only with installations', async () => {
    const slack = { SLACK_SIGNING_SECRET: 'a-signing-secret-long-enough-0123', DATABASE_URL: ':memory:' };
    const names = async (env: Record<string, string>) =>
      (await featuresOf(loadConfig(env))).map((f) => f.name);
    const oneToken = await names({ ...slack, SLACK_BOT_TOKEN: 'xoxb-1-one-token' });
    expect(oneToken).toEqual(FEATURES.map((f) => f.name).filter((n) => n !== 'install' && n !== 'setup'));
    const installs = {
      SLACK_CLIENT_ID: '1234.5678',
      SLACK_CLIENT_SECRET: 'client-secret-0123',
      SLACK_STATE_SECRET: 'state-secret-0123456789',
      TSAI_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    };
    expect(await names({ ...slack, ...installs })).toEqual(FEATURES.map((f) => f.name));
  });

  it('route what their listeners match, and no ID to two listeners', () => {
    const routes = routesOf(FEATURES);
    const answering = (route: string, id: string) =>
      routes.filter((r) => (r as Record<string, RegExp | undefined>)[route]?.test(id)).length;
    expect(answering('commands', '/tsai')).toBe(1);
    expect(answering('events', 'app_home_opened')).toBe(1);
    expect(answering('events', 'app_mention')).toBe(1);
    // Message events go to two listeners, each taking its own: the pane's those in a thread of the
    // direct messages, the Messages tab's (and the mentions') the rest.
    expect(answering('events', 'message')).toBe(2);
    const messageListeners = FEATURES.flatMap((f) => f.listeners).filter(
      (l) => l.match.route === 'events' && l.match.ids.test('message'),
    );
    const takers = (event: Record<string, unknown>) =>
      messageListeners.filter((l) => l.match.accepts?.({ event }) ?? true);
    const taker = (event: Record<string, unknown>) => {
      const [first] = takers(event);
      return FEATURES.find((f) => f.listeners.includes(first!))?.name;
    };
    const im = { type: 'message', channel: 'D0ALICE', channel_type: 'im', user: 'U0ALICE', ts: '2.0' };
    expect(taker({ ...im, thread_ts: '1.0' })).toBe('assistant');
    expect(taker({ ...im, subtype: 'message_changed', message: { ...im, thread_ts: '1.0' } })).toBe(
      'assistant',
    );
    expect(taker(im)).toBe('mentions');
    expect(answering('events', 'app_uninstalled')).toBe(1);
    expect(answering('events', 'tokens_revoked')).toBe(1);
    expect(answering('actions', 'tsai_modal_reopen')).toBe(1);
    expect(answering('actions', 'tsai_modal_range_remove:3')).toBe(1);
    expect(answering('actions', 'home_approve')).toBe(1);
    expect(answering('options', 'workspace_value')).toBe(1);
    expect(answering('actions', 'someone_elses_button')).toBe(0);
  });
});

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findSpec } from '../../src/core/grammar/commands.js';
import { REGISTRY } from '../../src/core/operations/registry/index.js';
import { SEED } from '../../standins/emulator/index.js';
import { DEFAULT_USERS, type LocalMessage } from '../../standins/localslack/index.js';
import { type Harness, startHarness } from '../support/harness.js';
import { registerSecrets } from '../support/logs.js';

/**
 * Slack's assistant pane, through the real bot over signed HTTP: the local Slack opens the pane's threads,
 * tells the bot the channel the person views, and delivers what they write there as Slack's Events API
 * does; the bot greets, suggests, reads each message as a typed command and answers in the pane.
 */
const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const OPS = 'C0OPS';
const GENERAL = 'C0GENERAL';
const RANGE = 'range="2026-11-20 to 2026-11-21"';

/** The pane as manifest.yml declares it: the stand-in shows what Slack would show. */
const MANIFEST = parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as {
  features: {
    assistant_view: {
      assistant_description: string;
      suggested_prompts: { title: string; message: string }[];
    };
  };
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    flowDelays: { runningAfterMs: 300, completedAfterMs: 1_500 },
    env: { TSAI_TRACK_FIRST_POLL: '100ms', TSAI_TRACK_MAX_INTERVAL: '400ms', TSAI_APPROVERS: BOB },
    users: DEFAULT_USERS,
    channels: [
      { id: GENERAL, name: 'general' },
      { id: OPS, name: 'plant-ops' },
    ],
  });
  const view = MANIFEST.features.assistant_view;
  h.slack.configureApp({
    assistantView: { description: view.assistant_description, suggestedPrompts: view.suggested_prompts },
  });
});
afterAll(async () => {
  await h?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: tests read Block Kit JSON by path
type Block = Record<string, any>;
const textOf = (m: LocalMessage | undefined) => (m ? `${m.text}\n${JSON.stringify(m.blocks ?? [])}` : '');
const bot = () => h.slack.botUserId;
const dm = (user: string) => `D${user}`;

/** The pane thread's head, as the stand-in keeps it (its status, prompts and title). */
const paneOf = (user: string, threadTs: string) =>
  h.slack.messages(dm(user)).find((m) => m.ts === threadTs)!.assistantThread!;

/** The bot's messages in a pane thread, oldest first. */
const inPane = (user: string, threadTs: string) =>
  h.slack.messages(dm(user), { user, threadTs }).filter((m) => m.ts !== threadTs && m.user === bot());

/** The first message of the bot in the pane thread after `after` that `test` accepts. */
const answer = (user: string, threadTs: string, after: string, test: RegExp, label: string) =>
  h.slack.waitFor(
    () => inPane(user, threadTs).find((m) => m.ts > after && test.test(textOf(m))),
    60_000,
    label,
  );

/** Opens the pane as `user`, viewing `channel`, and waits for the bot's greeting and prompts. */
async function open(user: string, channel?: string) {
  const opened = await h.slack.openAssistant({ user, ...(channel ? { channel } : {}) });
  expect(opened.delivery.status).toBe(200);
  const greeting = await answer(user, opened.threadTs, '0', /Hi <@/, 'the greeting');
  const pane = await h.slack.waitFor(
    () => paneOf(user, opened.threadTs).prompts,
    60_000,
    'the suggested prompts',
  );
  return { threadTs: opened.threadTs, greeting, prompts: pane.prompts };
}

/** `user` writes `text` in their pane thread. */
const write = (user: string, threadTs: string, text: string) =>
  h.slack.postUserMessage({ user, channel: dm(user), text, threadTs });

/** The Web API calls the bot made about one pane thread, as `method argument`. */
const paneCalls = (threadTs: string) =>
  h.slack.calls
    .filter((c) => c.method.startsWith('assistant.threads.') && c.args.thread_ts === threadTs)
    .map(
      (c) => `${c.method.slice('assistant.threads.'.length)} ${String(c.args.status ?? c.args.title ?? '')}`,
    );

/** The bot's reactions on a message of the pane, once they are exactly `names`. */
const reacted = (user: string, m: LocalMessage, names: string[]) =>
  h.slack.waitFor(
    () => {
      const on = (h.slack.messages(dm(user)).find((x) => x.ts === m.ts)?.reactions ?? []).map((r) => r.name);
      return JSON.stringify(on) === JSON.stringify(names) || undefined;
    },
    60_000,
    `${names.join(', ')} on ${m.ts}`,
  );

describe('the assistant pane', () => {
  it('greets with prompts derived from the registry, and the channel viewed', async () => {
    const { greeting, prompts } = await open(BOB, OPS);
    expect(textOf(greeting)).toContain(`<@${BOB}>`);
    expect(textOf(greeting)).toContain(`<#${OPS}>`);
    // Commands there are typed as in the Messages tab: without /tsai; the slash command is named as such.
    expect(textOf(greeting)).not.toContain('`/tsai ');
    expect(textOf(greeting)).toMatch(/what you would ask with \/tsai, without the slash: `\w+`/);
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts.length).toBeLessThanOrEqual(4);
    // Bob has started nothing yet: the operations a team uses most (their forms), and the flows lookup.
    const forms = REGISTRY.filter((e) => e.form?.shortcut);
    const lookup = findSpec('flows')!;
    expect(prompts).toEqual([
      ...forms.slice(0, 3).map((e) => ({ title: e.form!.title, message: e.command.words.join(' ') })),
      { title: expect.stringMatching(/flows/i), message: lookup.words.join(' ') },
    ]);
    // The same as the manifest suggests before anyone is greeted.
    expect(prompts).toEqual(MANIFEST.features.assistant_view.suggested_prompts);
  });

  it('answers a typed command in the pane, with its status while it works, the thread titled after it', async () => {
    const { threadTs } = await open(ALICE);
    const asked = write(ALICE, threadTs, `workspace show ${W}`);
    const shown = await answer(ALICE, threadTs, asked.ts, /Pump station A/, 'the workspace in the pane');
    expect(shown.threadTs).toBe(threadTs);
    expect(shown.ephemeralTo).toBeUndefined();
    await h.slack.waitFor(() => paneCalls(threadTs).includes('setStatus '), 60_000, 'the status cleared');
    expect(paneCalls(threadTs)).toEqual([
      'setSuggestedPrompts Try',
      'setStatus is reading your request…',
      `setTitle workspace show ${W}`,
      'setStatus ',
    ]);
    expect(paneOf(ALICE, threadTs).title).toBe(`workspace show ${W}`);
    await reacted(ALICE, asked, ['white_check_mark']);
  });

  it('suggests what the person did last, and uses the channel viewed for its defaults and announcements', async () => {
    await h.commandAndReply(`use workspace=${W}`, { user: ALICE, channel: OPS });
    const { threadTs } = await open(ALICE, OPS);
    // The workspace comes from #plant-ops's defaults.
    const asked = write(ALICE, threadTs, `learn signals=${T}:temperature ${RANGE} name=pane-learn`);
    const announced = await h.slack.waitFor(
      () => h.slack.messages(OPS).find((m) => !m.threadTs && /pane-learn/.test(textOf(m))),
      60_000,
      'the learn announced in #plant-ops',
    );
    expect(announced.ephemeralTo).toBeUndefined();
    const copy = await answer(ALICE, threadTs, asked.ts, /pane-learn/, 'the learn shown in the pane');
    expect(textOf(copy)).toContain(`<#${OPS}>`);
    // Followed from before its announcement.
    const flow = (await h.store.listTrackedFlows({ requesterId: ALICE })).find((f) =>
      /pane-learn/.test(JSON.stringify(f.request)),
    )!;
    expect(flow.channelId).toBe(OPS);
    const audit = await h.store.listAudit({ limit: 5 });
    expect(audit.find((e) => e.operation === 'flow.ANOMALYLEARN')?.params.via).toBe('assistant');
    expect(flow.origin).toBe('assistant');
    // While it runs the pane says it follows it; at its end the status clears, the pane says how it ended.
    await h.slack.waitFor(
      () => paneCalls(threadTs).includes(`setStatus is following flow ${flow.flowId}…`),
      60_000,
      'the status while the flow runs',
    );
    const ended = await answer(ALICE, threadTs, copy.ts, /ended: \*COMPLETED\*/, 'the end, in the pane');
    expect(textOf(ended)).toContain(`<#${OPS}>`);
    expect(paneCalls(threadTs).at(-1)).toBe('setStatus ');
    await reacted(ALICE, asked, ['white_check_mark']);

    // A new thread suggests how that learn went, and learning again, first.
    const again = await open(ALICE, OPS);
    expect(again.prompts[0]).toEqual({
      title: 'How is my last learn doing?',
      message: `flow ${flow.flowId}`,
    });
    expect(again.prompts[1]).toEqual({ title: expect.any(String), message: 'learn' });
  });

  it('follows the person to another channel: its defaults, not the first one’s', async () => {
    await h.commandAndReply('use workspace=1030000000000000009', { user: BOB, channel: GENERAL });
    const { threadTs } = await open(BOB, OPS);
    const moved = await h.slack.changeAssistantContext({ user: BOB, threadTs, channel: GENERAL });
    expect(moved.delivery.status).toBe(200);
    const asked = write(BOB, threadTs, 'use');
    const shown = await answer(BOB, threadTs, asked.ts, /1030000000000000009/, "#general's defaults");
    expect(textOf(shown)).toContain(`<#${GENERAL}>`);
  });

  it('offers a form with a button instead of acting, when a command leaves arguments out', async () => {
    const { threadTs } = await open(BOB);
    const asked = write(BOB, threadTs, 'learn');
    const offer = await answer(BOB, threadTs, asked.ts, /Open the form/, 'the offer of the form');
    const buttons = ((offer.blocks ?? []) as Block[]).filter((b) => b.type === 'actions');
    expect(buttons).toHaveLength(1);
    // The form's example is written as it is typed in the pane.
    expect(textOf(offer)).toContain('`learn');
    expect(await h.store.listTrackedFlows({ requesterId: BOB })).toEqual([]);
  });

  it('masks a token typed in the pane before it is kept, titled or shown', async () => {
    const secret = `xoxp-${'9'.repeat(12)}-${'8'.repeat(12)}-paneSecret0a1b2c3d`;
    registerSecrets(secret);
    const { threadTs } = await open(BOB);
    const asked = write(BOB, threadTs, `workspace create "Line 9" description="pasted ${secret}"`);
    const created = await answer(BOB, threadTs, asked.ts, /Line 9/, 'the workspace created');
    expect(textOf(created)).not.toContain(secret.slice(0, 20));
    expect(paneOf(BOB, threadTs).title).toContain('[a token-like value, not shown]');
    expect(JSON.stringify(h.slack.calls.map((c) => c.args))).not.toContain(secret.slice(0, 20));
    expect(JSON.stringify(await h.serviceRequests())).not.toContain(secret.slice(0, 20));
  });
});

describe('the pane’s thread is a conversation like the Messages tab', () => {
  it('acts once per message: a redelivery and an edit run nothing; a bot’s message is never read', async () => {
    const { threadTs } = await open(BOB);
    // The pane's start delivered again, under another event ID: greeted once.
    const started = h.slack.events.find(
      (e) =>
        e.event.type === 'assistant_thread_started' &&
        (e.event.assistant_thread as { thread_ts?: string }).thread_ts === threadTs,
    )!;
    expect((await h.slack.sendEvent(started.event, { user: BOB })).status).toBe(200);
    const creates = async () =>
      (await h.serviceRequests()).filter(
        (r) => r.method === 'POST' && JSON.stringify(r.body).includes('Once in pane'),
      );
    const asked = write(BOB, threadTs, 'workspace create "Once in pane"');
    await answer(BOB, threadTs, asked.ts, /Once in pane/, 'the workspace created');
    const delivered = h.slack.events.find((e) => e.event.ts === asked.ts)!;
    expect((await h.slack.sendEvent(delivered.event)).status).toBe(200);
    h.slack.editUserMessage({
      user: BOB,
      channel: dm(BOB),
      ts: asked.ts,
      text: 'workspace create "Edited in pane"',
    });
    const later = write(BOB, threadTs, 'flows');
    await answer(BOB, threadTs, later.ts, /flow/i, 'a later answer');
    expect(await creates()).toHaveLength(1);
    expect(JSON.stringify(await h.serviceRequests())).not.toContain('Edited in pane');
    expect(inPane(BOB, threadTs).filter((m) => /Hi <@/.test(textOf(m)))).toHaveLength(1);
  });

  it('answers a thread of the Messages tab that is not a pane’s as the Messages tab does', async () => {
    const top = h.slack.postUserMessage({ user: BOB, channel: dm(BOB), text: 'help' });
    await h.slack.waitFor(
      () => h.slack.messages(dm(BOB)).find((m) => m.user === bot() && m.ts > top.ts),
      60_000,
      'the help',
    );
    const asked = write(BOB, top.ts, `workspace show ${W}`);
    const shown = await h.slack.waitFor(
      () =>
        h.slack
          .messages(dm(BOB), { threadTs: top.ts })
          .find((m) => m.user === bot() && m.ts > asked.ts && /Pump station A/.test(textOf(m))),
      60_000,
      'the answer in that thread',
    );
    expect(shown.threadTs).toBe(top.ts);
    expect(h.slack.calls.some((c) => c.method.startsWith('assistant.') && c.args.thread_ts === top.ts)).toBe(
      false,
    );
  });
});

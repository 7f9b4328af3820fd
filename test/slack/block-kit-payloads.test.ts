import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/core/grammar/commands.js';
import { type AnyEntry, REGISTRY } from '../../src/core/operations/registry/index.js';
import {
  APPROVAL_ACTION,
  REJECT_REASON_ACTION,
  REJECT_REASON_BLOCK,
} from '../../src/slack/approvals/card.js';
import { FLOW_ACTION } from '../../src/slack/flows/views.js';
import {
  fieldActionId,
  MODAL_ACTION,
  MODAL_CALLBACK,
  SHORTCUT_CALLBACK,
} from '../../src/slack/forms/views/ids.js';
import { HOME_ACTION } from '../../src/slack/home/ids.js';
import { SEED } from '../../standins/emulator/index.js';
import {
  DEFAULT_CHANNELS,
  DEFAULT_USERS,
  type Delivery,
  type LocalMessage,
  type OpenView,
} from '../../standins/localslack/index.js';
import { messageProblems, optionsProblems, viewProblems } from '../support/block-kit-schema/index.js';
import { type Harness, startHarness } from '../support/harness.js';

/**
 * Every payload the bot can produce, gathered by driving the real bot (HTTP, real signatures) through
 * every command, form, button, Home and type-ahead request, with ordinary, long and odd input, and checked
 * against the Block Kit JSON Schema (test/support/block-kit-schema) and the payload limits Slack states,
 * and for any `<`, `>` or `&` in mrkdwn that Slack would read as markup. What is driven is read from the
 * command table and the registry, not listed: every command's help, examples, bare words and a key it
 * does not take; every operation's call failing each way the service fails; every form, opened by its
 * command and its shortcut; every flow an operation starts, followed to its end, with each button under
 * its end notice.
 * The store is in memory, so the follow-ups run on the acking thread and this stays in the fast tier;
 * what they send is built by the same code either way.
 */

const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const OPS = 'C0OPS';
const APPROVALS = 'C0APPROVALS';
const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const MODEL = SEED.models.temperatureCommon;
const RANGE = 'range="2026-11-20 to 2026-11-21"';

/** Long, odd and hostile input: what people paste. */
const LONG_WORDS = Array.from({ length: 700 }, (_, i) => `word${i}`).join(' ');
const EDGE_INPUT = [
  '',
  'frobnicate',
  `learn workspace=${W} signals=${T} ${RANGE} name="${LONG_WORDS.slice(0, 3500)}"`,
  `workspace show "${'Ä'.repeat(300)}"`,
  `workspace create "${'🔥 '.repeat(200)}" description="${LONG_WORDS}"`,
  `learn ${'x'.repeat(3900)}`,
  `learn workspace=${'9'.repeat(400)} signals=${T} range="${LONG_WORDS.slice(0, 2000)}"`,
  `use workspace=${W} entities=${Array.from({ length: 200 }, (_, i) => `pump-${i}`).join(',')}`,
  'use',
  'use clear',
  `eval ${SEED.assessments.temperature} range="${Array.from({ length: 40 }, () => 'yesterday').join(' and ')}"`,
  'flows 100',
  'audit 100',
  'approvals',
  '<!channel> <@U0BOB> *bold* `tick` &amp; <http://evil|click>',
];
const HELP = ['help', ...COMMANDS.map((c) => `help ${c.words.join(' ')}`)];
const EXAMPLES = COMMANDS.flatMap((c) => c.examples.map((e) => e.replace(/^\/tsai\s+/, '')));
/** Each command's words alone (its form, or what it misses) and with a key no command takes. */
const BARE = COMMANDS.flatMap((c) => [c.words.join(' '), `${c.words.join(' ')} frobnicate=1`]);
const COMMAND_TEXTS = [...new Set([...HELP, ...EXAMPLES, ...BARE, ...EDGE_INPUT])];
/** The operations whose command starts a flow, and those with a form. */
const FLOW_ENTRIES = REGISTRY.filter((e) => e.wire.flowType && e.command.examples.length > 0);
const FORM_ENTRIES = REGISTRY.filter((e) => e.form);
const exampleOf = (e: AnyEntry) => e.command.examples[0]!.replace(/^\/tsai\s+/, '');
/** The service's path of an entry's own call, as a pattern the emulator's faults match. */
const pathOf = (e: AnyEntry) =>
  `${e.wire.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '\\d+')}$`;
/** The ways the service fails: refused token, role, unknown resource, failing, gone before it answered. */
const SERVICE_FAULTS = [
  { status: 401, message: 'Unauthorized' },
  { status: 403, message: 'Forbidden' },
  { status: 404, message: 'Not found & <gone>' },
  { status: 500, message: 'Internal error <x> & more' },
  { reset: 'before' as const },
];
const FAULT_CHANNELS = SERVICE_FAULTS.flatMap((_, f) => REGISTRY.map((_e, i) => `C0FAULT${f}X${i}`));
const FLOW_CHANNELS = FLOW_ENTRIES.map((_, i) => `C0FLOWS${i}`);
/** A flow's end notice says how it ended. */
const ENDED = /\b(completed|failed|cancelled)\b/i;
const channelOf = (i: number) => `C0PAYLOAD${i}`;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    flowDelays: { runningAfterMs: 300, completedAfterMs: 1_200 },
    env: {
      DATABASE_URL: ':memory:',
      TSAI_APPROVERS: `${BOB},S0APPROVERS`,
      TSAI_APPROVALS_CHANNEL: APPROVALS,
      TSAI_TRACK_FIRST_POLL: '100ms',
      TSAI_TRACK_MAX_INTERVAL: '400ms',
    },
    users: DEFAULT_USERS,
    channels: [
      ...DEFAULT_CHANNELS,
      { id: APPROVALS, name: 'approvals' },
      ...COMMAND_TEXTS.map((_, i) => ({ id: channelOf(i), name: `payload-${i}` })),
      ...[...FAULT_CHANNELS, ...FLOW_CHANNELS].map((id) => ({ id, name: id.toLowerCase() })),
    ],
  });
});
afterAll(async () => {
  await h?.close();
});

/** One payload the bot produced and where it went. */
interface Produced {
  where: string;
  problems: string[];
}

/** The bot's own acks (help, form errors, options), kept as they were answered. */
const acks: Produced[] = [];

function ackOf(where: string, d: Delivery): Delivery {
  const body = d.json as Record<string, unknown> | undefined;
  if (body && typeof body === 'object') {
    if ('options' in body || 'option_groups' in body) acks.push({ where, problems: optionsProblems(body) });
    else if (body.response_action === 'errors') acks.push({ where, problems: errorsProblems(body.errors) });
    else if (body.view) acks.push({ where, problems: viewProblems(body.view as Record<string, unknown>) });
    else if ('text' in body || 'blocks' in body) acks.push({ where, problems: messageProblems(body) });
  }
  return d;
}

/** `response_action: errors`: one plain sentence per input block (docs.slack.dev/surfaces/modals). */
function errorsProblems(errors: unknown): string[] {
  if (!errors || typeof errors !== 'object') return ['errors: not an object'];
  return Object.entries(errors).flatMap(([blockId, msg]) =>
    typeof msg === 'string' && msg.length > 0 ? [] : [`errors.${blockId}: not a sentence`],
  );
}

const MESSAGE_METHODS = new Set(['chat.postMessage', 'chat.postEphemeral', 'chat.update']);
const VIEW_METHODS = new Set(['views.open', 'views.push', 'views.update', 'views.publish']);

/** What the bot sent Slack since `mark`: Web API calls and response_url posts, each checked. */
function producedSince(mark: Mark): Produced[] {
  const out: Produced[] = acks.slice(mark.acks);
  for (const [i, c] of h.slack.calls.slice(mark.calls).entries()) {
    const where = `${c.method} #${mark.calls + i}`;
    if (MESSAGE_METHODS.has(c.method))
      out.push({
        where,
        problems: messageProblems(c.args, c.method === 'chat.update' ? 'updated' : 'posted'),
      });
    else if (VIEW_METHODS.has(c.method))
      out.push({ where, problems: viewProblems(c.args.view as Record<string, unknown>) });
  }
  for (const [i, r] of h.slack.responses.slice(mark.responses).entries()) {
    const body = r.body as Record<string, unknown>;
    if ('text' in body || 'blocks' in body)
      out.push({
        where: `response_url #${mark.responses + i}`,
        problems: messageProblems(body, body.replace_original === true ? 'updated' : 'posted'),
      });
  }
  return out;
}

interface Mark {
  calls: number;
  responses: number;
  acks: number;
}
const mark = (): Mark => ({
  calls: h.slack.calls.length,
  responses: h.slack.responses.length,
  acks: acks.length,
});

/** Every payload since `m` is valid; returns how many there were by kind, so a phase shows it covered. */
function expectValidSince(m: Mark): Record<string, number> {
  const produced = producedSince(m);
  const bad = produced
    .filter((p) => p.problems.length > 0)
    .map((p) => `${p.where}: ${p.problems.join('; ')}`);
  expect(bad).toEqual([]);
  // Nothing the bot wrote carries template text (the service's naming pattern is said in words).
  const written = [
    ...h.slack.calls.slice(m.calls).map((c) => JSON.stringify(c.args)),
    ...h.slack.responses.slice(m.responses).map((r) => JSON.stringify(r.body)),
  ];
  expect(written.filter((t) => t.includes('{{'))).toEqual([]);
  const kinds: Record<string, number> = {};
  for (const p of produced) {
    const kind = p.where.split(' ')[0]!;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

/** Everything the bot sent since `m`, as JSON text. */
const sentSince = (m: Mark) =>
  JSON.stringify([h.slack.calls.slice(m.calls).map((c) => c.args), h.slack.responses.slice(m.responses)]);

const isReply = (m: LocalMessage, user: string) => m.kind !== 'command' && m.user !== user;

/** A command and what it led to: a reply `user` sees in `channel`, or a new modal. */
async function command(text: string, channel: string, user = ALICE): Promise<void> {
  const before = new Set(h.slack.messages(channel, { user }).map((m) => m.ts));
  const view = h.slack.topView(user)?.hash;
  const d = ackOf(`ack of /tsai ${text.slice(0, 40)}`, await h.command(text, { user, channel }));
  expect(d.status).toBe(200);
  await h.slack.waitFor(
    () =>
      h.slack.messages(channel, { user }).some((m) => !before.has(m.ts) && isReply(m, user)) ||
      (h.slack.topView(user)?.hash ?? view) !== view,
    20_000,
    `what /tsai ${text.slice(0, 40)} led to`,
  );
}

/** The user's top modal with `callbackId`, once it differs from `notHash` (opened or updated). */
function modal(user: string, callbackId: string, notHash?: string): Promise<OpenView> {
  return h.slack.waitFor(
    () => {
      const v = h.slack.topView(user);
      return v && v.view.callback_id === callbackId && v.hash !== notHash ? v : undefined;
    },
    10_000,
    `modal ${callbackId}`,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: the test reads Block Kit JSON by path
type Block = Record<string, any>;
const blocksOf = (v: OpenView) => v.view.blocks as Block[];

/** The user does what a form offers: types into each type-ahead, presses Enter in ranges, clicks buttons. */
async function exploreForm(user: string, v: OpenView): Promise<OpenView> {
  const callbackId = v.view.callback_id as string;
  for (const b of blocksOf(v)) {
    const el = b.element as Block | undefined;
    if (b.type !== 'input' || !el) continue;
    if (el.type === 'external_select' || el.type === 'multi_external_select') {
      for (const typed of ['pump', W, 'temp', '🔥🔥🔥', `${T}:${'label'.repeat(40)}`, 'x'.repeat(400)]) {
        const d = await h.slack.sendOptionsRequest({
          user,
          viewId: v.id,
          blockId: b.block_id,
          actionId: el.action_id,
          value: typed,
        });
        if (d.delivered) ackOf(`options for ${b.block_id} "${typed.slice(0, 20)}"`, d);
      }
    }
  }
  let current = v;
  const ranges = blocksOf(current).filter((b) => b.element?.action_id === MODAL_ACTION.range);
  for (const typed of ['last 3 days', 'blorp', LONG_WORDS.slice(0, 2900)]) {
    const range = ranges[0];
    if (!range) break;
    const hash = current.hash;
    await h.slack.sendViewAction({
      user,
      viewId: current.id,
      blockId: range.block_id,
      actionId: MODAL_ACTION.range,
      value: typed,
    });
    current = await modal(user, callbackId, hash);
  }
  for (let round = 0; round < 12; round++) {
    const add = blocksOf(current)
      .filter((b) => b.type === 'actions')
      .flatMap((b) => (b.elements as Block[]).map((e) => ({ block: b.block_id as string, e })))
      .find(({ e }) => e.action_id === MODAL_ACTION.addRange);
    if (!add) break;
    const hash = current.hash;
    await h.slack.sendViewAction({
      user,
      viewId: current.id,
      blockId: add.block,
      actionId: MODAL_ACTION.addRange,
    });
    current = await modal(user, callbackId, hash);
  }
  const remove = blocksOf(current)
    .filter((b) => b.type === 'actions')
    .flatMap((b) => (b.elements as Block[]).map((e) => ({ block: b.block_id as string, e })))
    .find(({ e }) => String(e.action_id).startsWith(MODAL_ACTION.removeRange));
  if (remove) {
    const hash = current.hash;
    await h.slack.sendViewAction({
      user,
      viewId: current.id,
      blockId: remove.block,
      actionId: remove.e.action_id as string,
    });
    current = await modal(user, callbackId, hash);
  }
  ackOf(
    `empty submission of ${callbackId}`,
    await h.slack.submitView({ user, viewId: current.id, values: {} }),
  );
  return current;
}

describe('every payload the bot produces is valid Block Kit within Slack limits', () => {
  // Each test outlasts the waits in it (at least a minute each on a busy machine, test/support/patience.ts),
  // so that what fails is the wait that names what never came, not the test's clock.
  // First, while no request of the examples' is pending (a second one for the same model is refused).
  it('every flow an operation starts (approved when it must be), to its end, and each button under it', {
    timeout: 240_000,
  }, async () => {
    const m = mark();
    const bot = h.slack.botUserId;
    for (const [i, e] of FLOW_ENTRIES.entries()) {
      const channel = FLOW_CHANNELS[i]!;
      const filed = h.slack.messages(APPROVALS).length;
      await h.command(exampleOf(e), { channel });
      // Its announcement in the channel, or the request the approvers decide, in whose thread it is followed.
      const first = await h.slack.waitFor(
        () =>
          h.slack.messages(channel).find((x) => x.user === bot && !x.ephemeralTo) ??
          h.slack
            .messages(APPROVALS)
            .slice(filed)
            .find((x) => x.user === bot && JSON.stringify(x.blocks ?? []).includes(APPROVAL_ACTION.approve)),
        20_000,
        `the flow of ${e.command.id}, or its request`,
      );
      if (first.channel === APPROVALS)
        ackOf(
          `approve ${e.command.id}`,
          await h.slack.clickButton({
            user: BOB,
            channel: APPROVALS,
            messageTs: first.ts,
            actionId: APPROVAL_ACTION.approve,
          }),
        );
      const end = await h.slack.waitFor(
        () =>
          h.slack
            .messages(first.channel, { threadTs: first.ts })
            .find((x) => x.ts !== first.ts && ENDED.test(x.text)),
        30_000,
        `the end notice of ${e.command.id}`,
      );
      const buttons = ((end.blocks ?? []) as Block[])
        .filter((b) => b.type === 'actions')
        .flatMap((b) => (b.elements as Block[]).map((el) => ({ block: b.block_id as string, el })))
        .filter(({ el }) => el.type === 'button');
      for (const { block, el } of buttons) {
        const view = h.slack.topView(ALICE)?.hash;
        const seen = h.slack.messages(first.channel, { user: ALICE }).length;
        ackOf(
          `${el.action_id} under ${e.command.id}`,
          await h.slack.clickButton({
            user: ALICE,
            channel: first.channel,
            messageTs: end.ts,
            actionId: el.action_id as string,
            blockId: block,
            value: el.value,
          }),
        );
        await h.slack.waitFor(
          () =>
            (h.slack.topView(ALICE)?.hash ?? view) !== view ||
            h.slack.messages(first.channel, { user: ALICE }).length > seen,
          10_000,
          `what ${el.action_id} under ${e.command.id} led to`,
        );
        const open = h.slack.topView(ALICE);
        if (open) await h.slack.closeView({ user: ALICE, viewId: open.id });
      }
    }
    const kinds = expectValidSince(m);
    expect(kinds['chat.update'] ?? 0).toBeGreaterThan(0);
    expect(kinds['views.open'] ?? 0).toBeGreaterThan(0);
  });

  it('commands: help, every example, usage errors, huge and hostile input', {
    timeout: 240_000,
  }, async () => {
    const m = mark();
    for (const [i, text] of COMMAND_TEXTS.entries()) {
      await command(text, channelOf(i));
      await h.slack
        .closeView({ user: ALICE, viewId: h.slack.topView(ALICE)?.id ?? '' })
        .catch(() => undefined);
    }
    const kinds = expectValidSince(m);
    expect(kinds['chat.postMessage'] ?? 0).toBeGreaterThan(0);
    expect(kinds.response_url ?? 0).toBeGreaterThan(0);
  });

  it('forms: opened by command and shortcut, typed into, previewed, extended, submitted', {
    timeout: 120_000,
  }, async () => {
    const m = mark();
    // Every form, opened by its command with nothing given (then with its first example's first value,
    // so that its type-ahead fields have something chosen), and by its shortcut.
    const openers: [string, () => Promise<unknown>][] = [
      ...FORM_ENTRIES.flatMap((e): [string, () => Promise<unknown>][] => {
        const words = e.command.words.join(' ');
        const first = exampleOf(e).slice(words.length).trim().split(/\s+/)[0] ?? '';
        return [
          [MODAL_CALLBACK[e.form!.id]!, () => h.command(words, { channel: OPS })],
          [MODAL_CALLBACK[e.form!.id]!, () => h.command(`${words} ${first}`, { channel: OPS })],
        ];
      }),
      ...Object.entries(SHORTCUT_CALLBACK).map(
        ([kind, callbackId]) =>
          [
            MODAL_CALLBACK[kind as keyof typeof MODAL_CALLBACK],
            () => h.slack.sendShortcut({ user: ALICE, callbackId, channel: OPS }),
          ] as [string, () => Promise<unknown>],
      ),
    ];
    for (const [callbackId, open] of openers) {
      const before = h.slack.topView(ALICE)?.hash;
      await open();
      const v = await modal(ALICE, callbackId, before);
      const explored = await exploreForm(ALICE, v);
      await h.slack.closeView({ user: ALICE, viewId: explored.id });
    }
    // One submitted with every field at its longest, so the announcement carries it all.
    const before = h.slack.topView(ALICE)?.hash;
    await h.slack.sendShortcut({ user: ALICE, callbackId: SHORTCUT_CALLBACK.learn, channel: OPS });
    const form = await modal(ALICE, MODAL_CALLBACK.learn, before);
    for (const [blockId, typed] of [
      ['workspace', W],
      ['signals', `${T}:temperature`],
    ] as const)
      ackOf(
        `options for ${blockId}`,
        await h.slack.sendOptionsRequest({
          user: ALICE,
          viewId: form.id,
          blockId,
          actionId: fieldActionId(blockId),
          value: typed,
        }),
      );
    const seen = new Set(h.slack.messages(OPS, { user: ALICE }).map((x) => x.ts));
    ackOf(
      'a learn submitted',
      await h.slack.submitView({
        user: ALICE,
        viewId: form.id,
        values: {
          channel: { [fieldActionId('channel')]: OPS },
          name: { [fieldActionId('name')]: `${'learn '.repeat(32)}end` },
          workspace: { [fieldActionId('workspace')]: W },
          signals: { [fieldActionId('signals')]: [`${T}:temperature`] },
          range_1: { [MODAL_ACTION.range]: '2026-11-20 to 2026-11-21' },
        },
      }),
    );
    await h.slack.waitFor(
      () => h.slack.messages(OPS, { user: ALICE }).find((x) => !seen.has(x.ts) && isReply(x, ALICE)),
      10_000,
      'what the submission led to',
    );
    const kinds = expectValidSince(m);
    expect(kinds['views.open'] ?? 0).toBeGreaterThanOrEqual(openers.length);
    expect(kinds['views.update'] ?? 0).toBeGreaterThan(0);
    expect(acks.slice(m.acks).some((a) => a.where.startsWith('options'))).toBe(true);
    expect(acks.slice(m.acks).some((a) => a.where.startsWith('empty submission'))).toBe(true);
  });

  it('a followed flow: its status in place, its end in the thread, its next-step buttons', {
    timeout: 180_000,
  }, async () => {
    const m = mark();
    const name = `followed-${'flow-'.repeat(30)}end`;
    const seen = new Set(h.slack.messages(OPS).map((x) => x.ts));
    await h.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name="${name}"`, {
      channel: OPS,
    });
    const ann = await h.slack.waitFor(
      () =>
        h.slack
          .messages(OPS)
          .find((x) => !seen.has(x.ts) && x.user === h.slack.botUserId && x.text.includes('ANOMALYLEARN')),
      10_000,
      'the announcement',
    );
    const end = await h.slack.waitFor(
      () => h.slack.messages(OPS, { threadTs: ann.ts }).find((x) => x.ts !== ann.ts),
      20_000,
      'the end notice in the thread',
    );
    for (const actionId of [FLOW_ACTION.score, FLOW_ACTION.relearn]) {
      const before = h.slack.topView(ALICE)?.hash;
      ackOf(actionId, await h.slack.clickButton({ user: ALICE, channel: OPS, messageTs: end.ts, actionId }));
      const v = await modal(
        ALICE,
        actionId === FLOW_ACTION.score ? MODAL_CALLBACK.score : MODAL_CALLBACK.relearn,
        before,
      );
      await h.slack.closeView({ user: ALICE, viewId: v.id });
    }
    const kinds = expectValidSince(m);
    expect(kinds['chat.update'] ?? 0).toBeGreaterThan(0);
  });

  it('approvals: the request card, its buttons, the reason form and the Home of each side', {
    timeout: 180_000,
  }, async () => {
    const m = mark();
    const requests: LocalMessage[] = [];
    // 200 characters is the most a reason may have.
    for (const reason of ['new baseline', LONG_WORDS.slice(0, 200)]) {
      const before = h.slack.messages(APPROVALS).length;
      await command(`live start ${MODEL} reason="${reason}"`, OPS);
      requests.push(
        await h.slack.waitFor(
          () =>
            h.slack
              .messages(APPROVALS)
              .slice(before)
              .find((x) => x.user === h.slack.botUserId),
          10_000,
          'the request card',
        ),
      );
    }
    // Bob approves the first request from his Home and rejects the second on its card. Which one his
    // Home lists first depends on when it was last published, so the button is found by request ID.
    const requestIdOf = (card: LocalMessage) =>
      ((card.blocks ?? []) as Block[])
        .filter((b) => b.type === 'actions')
        .flatMap((b) => b.elements as Block[])
        .find((e) => e.action_id === APPROVAL_ACTION.approve)?.value as string | undefined;
    const firstId = requestIdOf(requests[0]!);
    expect(firstId).toBeDefined();
    const homeApproveOf = (blocks: Block[]) =>
      blocks
        .filter((b) => b.type === 'actions')
        .flatMap((b) => (b.elements as Block[]).map((e) => ({ block: b.block_id as string, e })))
        .find(({ e }) => e.action_id === HOME_ACTION.approve && e.value === firstId);
    for (const user of [ALICE, BOB]) ackOf(`Home of ${user}`, await h.slack.openHome({ user }));
    const home = await h.slack.waitFor(
      () => {
        const v = h.slack.state.home.get(BOB);
        return v && homeApproveOf(v.view.blocks as Block[]) ? v : undefined;
      },
      10_000,
      'Bob’s Home with the first request',
    );
    const homeButton = homeApproveOf(home.view.blocks as Block[]);
    expect(homeButton).toBeDefined();
    ackOf(
      'Home approve',
      await h.slack.sendViewAction({
        user: BOB,
        viewId: home.id,
        blockId: homeButton!.block,
        actionId: HOME_ACTION.approve,
        value: homeButton!.e.value,
      }),
    );
    const card = requests[1]!;
    const before = h.slack.topView(BOB)?.hash;
    const buttons = ((card.blocks ?? []) as Block[]).filter((b) => b.type === 'actions');
    const reject = buttons
      .flatMap((b) => b.elements as Block[])
      .find((e) => e.action_id === APPROVAL_ACTION.reject);
    ackOf(
      'reject',
      await h.slack.clickButton({
        user: BOB,
        channel: APPROVALS,
        messageTs: card.ts,
        actionId: APPROVAL_ACTION.reject,
        value: reject?.value,
      }),
    );
    const reasonForm = await h.slack.waitFor(
      () => {
        const v = h.slack.topView(BOB);
        return v && v.hash !== before ? v : undefined;
      },
      10_000,
      'the reason form',
    );
    ackOf(
      'reason submitted',
      await h.slack.submitView({
        user: BOB,
        viewId: reasonForm.id,
        // The reason field takes 500 characters at most.
        values: { [REJECT_REASON_BLOCK]: { [REJECT_REASON_ACTION]: LONG_WORDS.slice(0, 500) } },
      }),
    );
    await h.slack.waitFor(
      () => h.slack.messages(APPROVALS).find((x) => x.ts === card.ts && x.edits > 0),
      10_000,
      'the card updated',
    );
    const kinds = expectValidSince(m);
    expect(kinds['views.publish'] ?? 0).toBeGreaterThan(0);
    expect(kinds['chat.update'] ?? 0).toBeGreaterThan(0);
  });

  it('failures: a service refusal with a long reason and its Reopen button, a failed approval and its Retry', {
    timeout: 180_000,
  }, async () => {
    const m = mark();
    const refusal = `The service refused it: ${LONG_WORDS}`;
    await h.addFault({ method: 'POST', path: '/flows$', status: 400, message: refusal, count: 1 });
    const before = h.slack.topView(ALICE)?.hash;
    await h.slack.sendShortcut({ user: ALICE, callbackId: SHORTCUT_CALLBACK.learn, channel: OPS });
    const form = await modal(ALICE, MODAL_CALLBACK.learn, before);
    for (const [blockId, typed] of [
      ['workspace', W],
      ['signals', `${T}:temperature`],
    ] as const)
      await h.slack.sendOptionsRequest({
        user: ALICE,
        viewId: form.id,
        blockId,
        actionId: fieldActionId(blockId),
        value: typed,
      });
    ackOf(
      'a learn the service refuses',
      await h.slack.submitView({
        user: ALICE,
        viewId: form.id,
        values: {
          channel: { [fieldActionId('channel')]: OPS },
          name: { [fieldActionId('name')]: 'refused' },
          workspace: { [fieldActionId('workspace')]: W },
          signals: { [fieldActionId('signals')]: [`${T}:temperature`] },
          range_1: { [MODAL_ACTION.range]: '2026-11-20 to 2026-11-21' },
        },
      }),
    );
    const refused = await h.slack.waitFor(
      () =>
        h.slack
          .messages(OPS, { user: ALICE })
          .find((x) => JSON.stringify(x.blocks ?? []).includes(MODAL_ACTION.reopen)),
      10_000,
      'the refusal with its Reopen button',
    );
    const reopenedFrom = h.slack.topView(ALICE)?.hash;
    ackOf(
      'reopen',
      await h.slack.clickButton({
        user: ALICE,
        channel: OPS,
        messageTs: refused.ts,
        actionId: MODAL_ACTION.reopen,
      }),
    );
    await h.slack.closeView({
      user: ALICE,
      viewId: (await modal(ALICE, MODAL_CALLBACK.learn, reopenedFrom)).id,
    });

    const filed = h.slack.messages(APPROVALS).length;
    await command(`live stop ${MODEL} reason="maintenance"`, OPS);
    const card = await h.slack.waitFor(
      () =>
        h.slack
          .messages(APPROVALS)
          .slice(filed)
          .find((x) => x.user === h.slack.botUserId),
      10_000,
      'the request card',
    );
    // A 503 is worth retrying, so the failed card offers Retry (a 4xx closes the request without it).
    await h.addFault({ method: 'POST', path: '/flows$', status: 503, message: refusal, count: 1 });
    // A button on the card, then the card as it shows afterwards: with or without its Retry button.
    const clickOnCard = async (actionId: string, retryShown: boolean, shows: string) => {
      ackOf(
        actionId,
        await h.slack.clickButton({ user: BOB, channel: APPROVALS, messageTs: card.ts, actionId }),
      );
      await h.slack.waitFor(
        () =>
          h.slack
            .messages(APPROVALS)
            .find(
              (x) =>
                x.ts === card.ts &&
                JSON.stringify(x.blocks ?? []).includes(APPROVAL_ACTION.retry) === retryShown,
            ),
        10_000,
        shows,
      );
    };
    await clickOnCard(APPROVAL_ACTION.approve, true, 'the failed request with its Retry button');
    await clickOnCard(APPROVAL_ACTION.retry, false, 'the retried request');
    const kinds = expectValidSince(m);
    expect(kinds['chat.update'] ?? 0).toBeGreaterThan(0);
  });
  it('a live start the bot cannot vouch for, whose card the approvals channel does not take', {
    timeout: 180_000,
  }, async () => {
    const m = mark();
    h.slack.injectFault({
      method: 'chat.postMessage',
      channel: APPROVALS,
      error: 'not_in_channel',
      times: 'always',
    });
    try {
      const unseen = '1070000000000000999';
      await command(`live start ${unseen} reason="never seen"`, OPS);
      await h.slack.waitFor(
        () => sentSince(m).includes('The card says so too'),
        10_000,
        'the requester told what the bot cannot vouch for',
      );
    } finally {
      h.slack.clearFaults();
    }
    expectValidSince(m);
    // The example a person may type names its placeholder as Slack shows it: escaped.
    expect(sentSince(m)).toContain('assessment=&lt;assessment ID&gt;');
  });
  // Last: a 404 on a flow's read-back that does not name the flow says the service has no read-back,
  // which the bot then remembers, and follows no flow after it.
  it('every operation failing at the service, each way the service fails: what the person is told', {
    timeout: 240_000,
  }, async () => {
    const m = mark();
    for (const [f, fault] of SERVICE_FAULTS.entries()) {
      for (const e of REGISTRY) await h.addFault({ method: e.wire.method, path: pathOf(e), ...fault });
      await Promise.all(
        REGISTRY.map((e, i) =>
          e.command.examples.length > 0 ? command(exampleOf(e), `C0FAULT${f}X${i}`) : undefined,
        ),
      );
      await h.clearFaults();
    }
    const kinds = expectValidSince(m);
    expect(kinds.response_url ?? 0).toBeGreaterThanOrEqual(SERVICE_FAULTS.length);
  });
});

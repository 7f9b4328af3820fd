import { afterEach, describe, expect, it } from 'vitest';
import {
  fieldActionId,
  MODAL_ACTION,
  MODAL_CALLBACK,
  SHORTCUT_CALLBACK,
} from '../../src/slack/forms/views/ids.js';
import { decodeMeta } from '../../src/slack/forms/views/metadata.js';
import { SEED } from '../../standins/emulator/index.js';
import {
  DEFAULT_CHANNELS,
  DEFAULT_USERS,
  type LocalMessage,
  type OpenView,
} from '../../standins/localslack/index.js';
import { buttonsOf, textOf } from '../support/approvals-rig.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import type { Harness } from '../support/harness.js';
import { waitUntil } from '../support/patience.js';

/**
 * Slack failing or refusing, through the real bot (signed requests into the real Bolt app, the follow-up
 * worker on, the local Slack's fault injection and channel states): each fault on each surface ends with
 * the defined fallback or a clear message to the person, a log line, and nothing left in limbo (the
 * store's tracked flows are checked). The approvals and the App Home are in slack-faults-approvals.test.ts.
 */
const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const ALICE = 'U0ALICE';
const OPS = 'C0OPS';
const SLOW = 'C0SLOW';
const QUICK = 'C0QUICK';
const GONE = 'C0GONE';
const LEFT = 'C0LEFT';
const CLOSED = 'C0CLOSED';
const PRIVATE = 'C0PRIVATE';
const RANGE = 'range="2026-11-20 to 2026-11-21"';
const learn = (name: string) => `learn workspace=${W} signals=${T}:temperature ${RANGE} name=${name}`;

let h: Harness;
stackForThisSuite(
  (started) => {
    h = started;
  },
  {
    flowDelays: { runningAfterMs: 300, completedAfterMs: 1_200 },
    env: { TSAI_TRACK_FIRST_POLL: '100ms', TSAI_TRACK_MAX_INTERVAL: '400ms' },
    users: DEFAULT_USERS,
    channels: [
      ...DEFAULT_CHANNELS,
      { id: SLOW, name: 'slow' },
      { id: QUICK, name: 'quick' },
      { id: GONE, name: 'gone' },
      { id: LEFT, name: 'left' },
      { id: PRIVATE, name: 'private-ops', isPrivate: true, botMember: false },
      { id: CLOSED, name: 'closed-ops', isPrivate: true },
    ],
  },
);
afterEach(() => {
  h.slack.clearFaults();
  h.slack.setTokenStatus('active');
  for (const c of [GONE, CLOSED]) h.slack.setChannelState(c, { archived: false, botMember: true });
});

const botMessages = (channel: string) =>
  h.slack.messages(channel).filter((m) => m.user === h.slack.botUserId && !m.threadTs);
const current = (channel: string, ts: string) => h.slack.messages(channel).find((m) => m.ts === ts);
const flowIdOf = (m: LocalMessage) => /flow (\d{19})/.exec(m.text)?.[1] ?? '';
const threadOf = (channel: string, ts: string) =>
  h.slack
    .messages(channel, { threadTs: ts })
    .filter((m) => m.user === h.slack.botUserId && m.threadTs === ts);
/** The bot's messages in its direct messages with `user`. */
const dms = (user: string) => h.slack.messages(`D${user}`).filter((m) => m.user === h.slack.botUserId);

function announcement(channel: string, name: string, timeout = 5_000): Promise<LocalMessage> {
  return h.slack.waitFor(
    () => botMessages(channel).find((m) => textOf(m).includes(name)),
    timeout,
    `the announcement of ${name}`,
  );
}
function showing(channel: string, ts: string, status: RegExp, timeout = 10_000): Promise<LocalMessage> {
  return h.slack.waitFor(
    () => {
      const m = current(channel, ts);
      return m && status.test(textOf(m)) ? m : undefined;
    },
    timeout,
    `the announcement showing ${status}`,
  );
}
function completion(channel: string, ts: string, timeout = 10_000): Promise<LocalMessage> {
  return h.slack.waitFor(() => threadOf(channel, ts)[0], timeout, 'the end notice in the thread');
}
/** The next message `user` sees in `channel` (or their DMs) after `before`, matching `re`. */
function seenBy(user: string, where: string, re: RegExp, timeout = 8_000): Promise<LocalMessage> {
  const channel = where === 'dm' ? `D${user}` : where;
  return h.slack.waitFor(
    () => h.slack.messages(channel, { user }).find((m) => m.user === h.slack.botUserId && re.test(textOf(m))),
    timeout,
    `a message to ${user} in ${where} matching ${re}`,
  );
}

type Line = { msg: string; level: number } & Record<string, unknown>;
const lines = (from = 0): Line[] =>
  h.logs
    .slice(from)
    .flatMap((chunk) => chunk.split('\n'))
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Line);
/** Waits for a log line with this message (and these fields), among the lines from index `from` on. */
async function logged(msg: string, fields: Record<string, unknown> = {}, from = 0): Promise<Line> {
  let found: Line | undefined;
  await waitUntil(
    () => {
      found = lines(from).find((l) => l.msg === msg && Object.entries(fields).every(([k, v]) => l[k] === v));
      if (!found) throw new Error(`no log line "${msg}" ${JSON.stringify(fields)}`);
    },
    { timeout: 10_000, interval: 50 },
  );
  return found!;
}
const tracked = async (flowId: string) =>
  (await h.store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowId }))!;

async function form(callbackId: string): Promise<OpenView> {
  return h.slack.waitFor(
    (s) => {
      const v = s.topView(ALICE);
      if (!v || v.view.callback_id !== callbackId) return undefined;
      return decodeMeta(v.view.private_metadata as string)?.timeZone ? v : undefined;
    },
    5_000,
    `the ${callbackId} form`,
  );
}

describe('command replies', () => {
  it('a response_url that answers 404 or 5xx: the reply comes ephemerally; an ephemeral that is rate-limited too: by direct message', async () => {
    h.slack.injectFault({ method: 'response_url', status: 404 });
    const from = h.logs.length;
    const reply = await h.commandAndReply(`workspace show ${W}`);
    expect([reply.via, reply.ephemeralTo]).toEqual(['api', ALICE]);
    expect(textOf(reply)).toContain('Pump station A');
    await logged('response_url post failed; trying the next way', {}, from);

    h.slack.injectFault({ method: 'response_url', status: 503 });
    h.slack.injectFault({ method: 'chat.postEphemeral', status: 429, retryAfter: 30 });
    const dmBefore = dms(ALICE).length;
    await h.command(`workspace show ${W}`);
    const dm = await h.slack.waitFor(() => dms(ALICE)[dmBefore], 8_000, 'the reply by DM');
    expect(textOf(dm)).toContain('Pump station A');
    await logged('ephemeral failed; sending a direct message', {}, from);
  });

  it('a reply Slack refuses for its content (invalid_blocks, msg_too_long) arrives shorter, as plain text, the same way', async () => {
    h.slack.injectFault({ method: 'response_url', status: 400, error: 'invalid_blocks' });
    const from = h.logs.length;
    const reply = await h.commandAndReply(`workspace show ${W}`);
    expect(reply.via).toBe('response_url');
    expect(reply.blocks).toHaveLength(1);
    expect(textOf(reply)).toContain('Pump station A');
    expect(textOf(reply)).toContain(`/tsai workspace show ${W}`);
    await logged('Slack refused a message; sending it shorter, as plain text', {}, from);

    // A flow announcement refused for its length: posted plain, then updated in place, and ended.
    h.slack.injectFault({ method: 'chat.postMessage', channel: OPS, error: 'msg_too_long' });
    await h.command(learn('plain-start'), { channel: OPS });
    const ann = await announcement(OPS, 'plain-start');
    expect(buttonsOf(ann)).toEqual([]);
    await showing(OPS, ann.ts, /\*COMPLETED\* after/);
    expect(textOf(await completion(OPS, ann.ts))).toContain('completed after');

    // An end notice refused for its blocks: replied plain in the thread.
    await h.command(learn('plain-end'), { channel: OPS });
    const ann2 = await announcement(OPS, 'plain-end');
    h.slack.injectFault({ method: 'chat.postMessage', channel: OPS, error: 'invalid_blocks' });
    const end = await completion(OPS, ann2.ts);
    expect(end.blocks).toHaveLength(1);
    expect(textOf(end)).toContain(`<@${ALICE}>`);
    expect(textOf(end)).toContain('completed after');
    await waitUntil(async () => expect((await tracked(flowIdOf(ann2))).notifiedAt).not.toBeNull(), {
      timeout: 5_000,
    });
  });
});

describe('flow announcements and end notices', () => {
  it("a 429 with a long Retry-After on one channel's updates holds only that message: other channels' flows are announced and ended meanwhile, and it ends once the wait is over", async () => {
    h.slack.injectFault({
      method: 'chat.update',
      channel: SLOW,
      status: 429,
      retryAfter: 8,
      times: 'always',
    });
    await h.command(learn('held-back'), { channel: SLOW });
    const slow = await announcement(SLOW, 'held-back');
    await waitUntil(
      async () => expect((await tracked(flowIdOf(slow))).showNotBefore).toBeGreaterThan(Date.now()),
      { timeout: 5_000 },
    );

    // Meanwhile two flows elsewhere go their whole way.
    for (const name of ['quick-one', 'quick-two']) {
      await h.command(learn(name), { channel: QUICK });
      const quick = await announcement(QUICK, name);
      await showing(QUICK, quick.ts, /\*COMPLETED\* after/);
      await completion(QUICK, quick.ts);
    }
    // Still held: its one update was refused and no other was tried before the wait ran out.
    const refused = h.slack.calls.filter((c) => c.method === 'chat.update' && c.args.channel === SLOW);
    expect(refused.every((c) => c.status === 429)).toBe(true);
    expect(threadOf(SLOW, slow.ts)).toEqual([]);
    expect((await tracked(flowIdOf(slow))).notifiedAt).toBeNull();

    h.slack.clearFaults();
    await showing(SLOW, slow.ts, /\*COMPLETED\* after/, 20_000);
    await completion(SLOW, slow.ts, 20_000);
    expect(threadOf(SLOW, slow.ts)).toHaveLength(1);
  }, 60_000);

  it.each([
    [
      'a 429 with a long Retry-After on its chat.postMessage',
      { method: 'chat.postMessage', channel: SLOW, status: 429, retryAfter: 60 },
    ],
    ['every Web API call answered invalid_auth', { method: '*', error: 'invalid_auth' }],
  ])(
    "%s: the flow is announced in its channel through the command's response_url, and its end goes there too",
    async (_what, fault) => {
      h.slack.injectFault({ times: 'always', ...fault });
      const name = fault.method === '*' ? 'via-url-auth' : 'via-url-429';
      await h.command(learn(name), { channel: SLOW });
      const ann = await h.slack.waitFor(
        () => h.slack.messages(SLOW).find((m) => m.via === 'response_url' && textOf(m).includes(name)),
        8_000,
        'the announcement through the response_url',
      );
      expect(ann.ephemeralTo).toBeUndefined();
      const end = await h.slack.waitFor(
        () =>
          h.slack
            .messages(SLOW)
            .find(
              (m) =>
                m.via === 'response_url' &&
                m.ts !== ann.ts &&
                /completed after/.test(textOf(m)) &&
                textOf(m).includes(flowIdOf(ann)),
            ),
        12_000,
        'the end through the response_url',
      );
      expect(end.ephemeralTo).toBeUndefined();
      await waitUntil(
        async () => {
          const f = await tracked(flowIdOf(ann));
          expect(f.announcement).toMatchObject({ kind: 'response-url' });
          expect(f.finishedAt).not.toBeNull();
        },
        { timeout: 5_000 },
      );
    },
  );

  it('Slack failing (5xx) on the updates and the end notice: tried again later, and the flow still reaches its end notice once Slack answers', async () => {
    await h.command(learn('through-5xx'), { channel: SLOW });
    const ann = await announcement(SLOW, 'through-5xx');
    const from = h.logs.length;
    h.slack.injectFault({ method: 'chat.update', channel: SLOW, status: 503, times: 'always' });
    h.slack.injectFault({ method: 'chat.postMessage', channel: SLOW, status: 502, times: 'always' });
    h.slack.injectFault({ method: 'chat.postMessage', channel: ALICE, status: 502, times: 'always' });
    // The flow ended at the service, the bot knows it, and nothing has been given up.
    await waitUntil(async () => expect((await tracked(flowIdOf(ann))).endReason).toBe('ended'), {
      timeout: 10_000,
    });
    await logged('could not update a flow announcement; trying again later', { flowId: flowIdOf(ann) }, from);
    const during = await tracked(flowIdOf(ann));
    expect([during.notifiedAt, during.finishedAt]).toEqual([null, null]);

    h.slack.clearFaults();
    await showing(SLOW, ann.ts, /\*COMPLETED\* after/, 15_000);
    const end = await completion(SLOW, ann.ts, 15_000);
    expect(end.text).toContain(`<@${ALICE}>`);
    await waitUntil(async () => expect((await tracked(flowIdOf(ann))).finishedAt).not.toBeNull(), {
      timeout: 5_000,
    });
    expect(threadOf(SLOW, ann.ts)).toHaveLength(1);
  }, 40_000);

  it.each([
    ['archived (is_inactive, is_archived)', GONE],
    ['private, the bot removed from it (channel_not_found)', CLOSED],
    ['answering not_in_channel', LEFT],
  ] as const)(
    'a channel %s after the announcement: the end goes to the requester by direct message, and following ends',
    async (_what, channel) => {
      await h.command(learn(`moved-${channel}`), { channel });
      const ann = await announcement(channel, `moved-${channel}`);
      if (channel === GONE) h.slack.setChannelState(channel, { archived: true });
      else if (channel === CLOSED) h.slack.setChannelState(channel, { botMember: false });
      else
        for (const method of ['chat.update', 'chat.postMessage'])
          h.slack.injectFault({ method, channel, error: 'not_in_channel', times: 'always' });
      const dm = await seenBy(ALICE, 'dm', new RegExp(`Started in <#${channel}>`), 12_000);
      expect(textOf(dm)).toContain('completed after');
      expect(textOf(dm)).toContain(flowIdOf(ann));
      expect(threadOf(channel, ann.ts)).toEqual([]);
      await waitUntil(
        async () => {
          const f = await tracked(flowIdOf(ann));
          expect(f.notifiedAt).not.toBeNull();
          expect(f.finishedAt).not.toBeNull();
        },
        { timeout: 5_000 },
      );
    },
  );

  it('the token revoked while a flow runs: commands are still answered through their response_url, the end waits and is told once the token works again', async () => {
    await h.command(learn('revoked-mid'), { channel: SLOW });
    const ann = await announcement(SLOW, 'revoked-mid');
    h.slack.setTokenStatus('revoked');
    await waitUntil(async () => expect((await tracked(flowIdOf(ann))).endReason).toBe('ended'), {
      timeout: 10_000,
    });
    // What a person sees meanwhile: a lookup answers as usual (a response_url needs no token).
    const reply = await h.commandAndReply(`workspace show ${W}`, { channel: OPS });
    expect([reply.via, textOf(reply).includes('Pump station A')]).toEqual(['response_url', true]);
    const ready = await fetch(`http://127.0.0.1:${h.bot.port()}/readyz`);
    expect(ready.status).toBe(503);
    expect(JSON.stringify(await ready.json())).toContain('token_revoked');
    expect((await tracked(flowIdOf(ann))).notifiedAt).toBeNull();

    h.slack.setTokenStatus('active');
    await showing(SLOW, ann.ts, /\*COMPLETED\* after/, 15_000);
    await completion(SLOW, ann.ts, 15_000);
    expect(threadOf(SLOW, ann.ts)).toHaveLength(1);
  }, 40_000);

  it('in a private channel without the bot whose response_url is used up (5 uses), the flow is announced and ended by direct message', async () => {
    await h.command(`learn workspace=${W}`, { channel: PRIVATE });
    const v = await form(MODAL_CALLBACK.learn);
    const meta = decodeMeta(v.view.private_metadata as string)!;
    // Five posts to the command's response_url (Slack takes no more within 30 minutes).
    for (let i = 0; i < 5; i++)
      expect(
        (await fetch(meta.responseUrl!, { method: 'POST', body: JSON.stringify({ text: `use ${i}` }) }))
          .status,
      ).toBe(200);
    for (const [blockId, value] of [
      ['workspace', W],
      ['signals', `${T}:temperature`],
    ] as const)
      await h.slack.sendOptionsRequest({
        user: ALICE,
        viewId: v.id,
        blockId,
        actionId: fieldActionId(blockId),
        value,
      });
    const sent = await h.slack.submitView({
      user: ALICE,
      viewId: v.id,
      values: {
        name: { [fieldActionId('name')]: 'private-used-up' },
        workspace: { [fieldActionId('workspace')]: W },
        signals: { [fieldActionId('signals')]: [`${T}:temperature`] },
        range_1: { [MODAL_ACTION.range]: '2026-11-20 to 2026-11-21' },
      },
    });
    expect(sent.errors).toBeUndefined();
    const ann = await seenBy(ALICE, 'dm', /private-used-up/);
    expect(h.slack.responses.at(-1)).toMatchObject({ status: 404, error: 'used_url' });
    const end = await h.slack.waitFor(
      () => h.slack.messages(`D${ALICE}`, { threadTs: ann.ts }).find((m) => m.threadTs === ann.ts),
      10_000,
      'the end notice under the DM',
    );
    expect(textOf(end)).toContain('completed after');
    expect((await tracked(flowIdOf(ann))).announcement).toMatchObject({
      kind: 'message',
      channelId: `D${ALICE}`,
    });
  });
});

describe('forms', () => {
  it('expired_trigger_id on a form asked by a command: the person is told why, with a button that opens it with what they gave and the command form', async () => {
    h.slack.injectFault({ method: 'views.open', error: 'expired_trigger_id' });
    const from = h.logs.length;
    const note = await h.commandAndReply(`learn workspace=${W} name=kept-input`);
    expect([note.via, note.ephemeralTo]).toEqual(['response_url', ALICE]);
    expect(textOf(note)).toContain('The learn form did not open');
    expect(textOf(note)).toContain('only 3 seconds');
    expect(textOf(note)).toContain(`/tsai learn workspace=${W} name=kept-input`);
    expect(buttonsOf(note)).toEqual([MODAL_ACTION.reopen]);
    await logged('could not open the modal', {}, from);
    expect(h.slack.topView(ALICE)).toBeUndefined();

    // A click brings a new trigger_id: the form opens with what was given.
    const button = (note.blocks as { type: string; elements?: { value: string }[] }[]).find(
      (b) => b.type === 'actions',
    )!;
    await h.slack.clickButton({
      user: ALICE,
      channel: OPS,
      messageTs: note.ts,
      actionId: MODAL_ACTION.reopen,
      value: button.elements![0]!.value,
    });
    const v = await form(MODAL_CALLBACK.learn);
    const initial = (blockId: string) =>
      (
        v.view.blocks as {
          block_id?: string;
          element?: { initial_value?: string; initial_option?: { value: string } };
        }[]
      ).find((b) => b.block_id === blockId)?.element;
    expect(initial('name')?.initial_value).toBe('kept-input');
    expect(initial('workspace')?.initial_option?.value).toBe(W);
    await h.slack.closeView({ user: ALICE, viewId: v.id });
  });

  it.each([
    [{ status: 503 }, 'Slack did not answer'],
    [
      { error: 'invalid_blocks' },
      'Slack refused the message as too long or malformed, which is a bug in the bot',
    ],
    [
      { error: 'invalid_auth' },
      "Slack refuses the bot's token (the app was removed or its token revoked): tell your Slack admins",
    ],
  ])('views.open answering %o: the same message, saying why (%s)', async (fault, why) => {
    // Twice: the Web API client tries a 5xx once more by itself.
    h.slack.injectFault({ method: 'views.open', times: 2, ...fault });
    const note = await h.commandAndReply('eval');
    expect(textOf(note)).toContain(`The eval form did not open: ${why}`);
    expect(textOf(note)).not.toMatch(/invalid_blocks|invalid_auth/);
    expect(buttonsOf(note)).toEqual([MODAL_ACTION.reopen]);
  });

  it('a 429 on views.open from a global shortcut: the person is told by direct message, with the button', async () => {
    h.slack.injectFault({ method: 'views.open', status: 429, retryAfter: 5 });
    const before = dms(ALICE).length;
    await h.slack.sendShortcut({ user: ALICE, callbackId: SHORTCUT_CALLBACK.learn });
    const note = await h.slack.waitFor(() => dms(ALICE)[before], 8_000, 'the DM about the form');
    expect(textOf(note)).toContain('The learn form did not open: Slack asked the bot to slow down');
    expect(buttonsOf(note)).toEqual([MODAL_ACTION.reopen]);
    const value = (note.blocks as { type: string; elements?: { value: string }[] }[]).find(
      (b) => b.type === 'actions',
    )!.elements![0]!.value;
    await h.slack.clickButton({
      user: ALICE,
      channel: `D${ALICE}`,
      messageTs: note.ts,
      actionId: MODAL_ACTION.reopen,
      value,
    });
    const v = await form(MODAL_CALLBACK.learn);
    await h.slack.closeView({ user: ALICE, viewId: v.id });
  });

  it("with the token refused, a form asked by a command says so through the command's response_url, with the command form", async () => {
    h.slack.setTokenStatus('inactive');
    const note = await h.commandAndReply(`score ${SEED.models.temperatureCommon}`);
    expect(note.via).toBe('response_url');
    expect(textOf(note)).toContain(
      "Slack refuses the bot's token (the app was removed or its token revoked): tell your Slack admins",
    );
    expect(textOf(note)).not.toContain('account_inactive');
    expect(textOf(note)).toContain(`/tsai score ${SEED.models.temperatureCommon}`);
  });

  it('type-ahead options are answered from the store: Slack refusing the token or failing changes nothing', async () => {
    await h.command(`learn workspace=${W}`);
    const v = await form(MODAL_CALLBACK.learn);
    h.slack.setTokenStatus('revoked');
    h.slack.injectFault({ method: '*', status: 503, times: 'always' });
    const offered = await h.slack.sendOptionsRequest({
      user: ALICE,
      viewId: v.id,
      blockId: 'workspace',
      actionId: fieldActionId('workspace'),
      value: 'pump',
    });
    expect(offered.status).toBe(200);
    expect(offered.options?.map((o) => o.value)).toContain(W);
    h.slack.setTokenStatus('active');
    h.slack.clearFaults();
    await h.slack.closeView({ user: ALICE, viewId: v.id });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalSlack, signSlackRequest, startLocalSlack } from '../../../standins/localslack/index.js';
import { patient } from '../../support/patience.js';
import { SECRET, startTestBot, type TestBot, TOKEN } from './bolt-app.js';

let slack: LocalSlack;
let bot: TestBot;
let clockOffset = 0;
let authTest: unknown;

beforeAll(async () => {
  slack = patient(
    await startLocalSlack({
      signingSecret: SECRET,
      botToken: TOKEN,
      now: () => Date.now() + clockOffset,
    }),
  );
  bot = await startTestBot(slack.apiUrl);
  slack.setBotEndpoint(bot.endpoint);
  // Built without botId, Bolt asks the stand-in who it is before handling anything.
  authTest = (await slack.waitFor((s) => s.calls.find((c) => c.method === 'auth.test'))).response;
});
afterAll(async () => {
  await bot?.stop();
  await slack?.close();
});
beforeEach(() => {
  clockOffset = 0;
  slack.reset();
});

const texts = (channel: string, user: string) => slack.messages(channel, { user }).map((m) => m.text);

describe('a real Bolt app driven through the local Slack', () => {
  it('command: ack, in-channel post and an ephemeral reply only the invoker sees', async () => {
    const d = await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'hello' });
    expect(d.status).toBe(200);
    expect(d.body).toBe('');
    await slack.waitFor((s) => s.responses.length === 1, undefined, 'ephemeral reply');
    expect(texts('C0GENERAL', 'U0ALICE')).toEqual([
      '/tsai hello',
      'hello from the bot to <@U0ALICE>',
      'only you can see this',
    ]);
    expect(texts('C0GENERAL', 'U0BOB')).toEqual(['hello from the bot to <@U0ALICE>']);
    const post = slack.calls.find((c) => c.method === 'chat.postMessage');
    expect(post?.args).toMatchObject({ channel: 'C0GENERAL', text: 'hello from the bot to <@U0ALICE>' });
    expect(JSON.stringify(slack.calls)).not.toContain(TOKEN);
  });

  it('modal: views.open with the trigger, errors keep it open with the typed values, success closes it', async () => {
    const d = await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'modal' });
    expect(d.status).toBe(200);
    const view = await slack.waitFor((s) => s.topView('U0ALICE'), undefined, 'modal open');
    expect(view.view.callback_id).toBe('range_modal');

    const empty = await slack.submitView({ user: 'U0ALICE', viewId: view.id });
    expect(empty.delivered).toBe(false);
    expect(empty.errors).toEqual({ range_block: 'Please fill out this field.' });

    const bad = await slack.submitView({
      user: 'U0ALICE',
      viewId: view.id,
      values: { range_block: { range: 'bad' } },
    });
    expect(bad.status).toBe(200);
    expect(bad.errors).toEqual({ range_block: 'Could not read "bad" as a time range' });
    expect(slack.topView('U0ALICE')?.id).toBe(view.id);
    expect(slack.topView('U0ALICE')?.values.range_block?.range).toBe('bad');

    const good = await slack.submitView({
      user: 'U0ALICE',
      viewId: view.id,
      values: { range_block: { range: 'last 2 hours' }, kind_block: { kind: 'score' } },
    });
    expect(good.status).toBe(200);
    expect(good.errors).toBeUndefined();
    expect(slack.topView('U0ALICE')).toBeUndefined();
    const msg = await slack.waitFor((s) =>
      s.messages('C0GENERAL', { user: 'U0BOB' }).find((m) => m.text.startsWith('range ')),
    );
    expect(msg.text).toBe('range last 2 hours kind score by U0ALICE');
  });

  it('a block action inside a modal updates it with the hash; typed values survive; a stale hash conflicts', async () => {
    await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'modal' });
    const view = await slack.waitFor((s) => s.topView('U0ALICE'));
    const oldHash = view.hash;
    slack.typeIntoView({
      user: 'U0ALICE',
      viewId: view.id,
      blockId: 'range_block',
      actionId: 'range',
      value: 'today',
    });
    const d = await slack.sendViewAction({
      user: 'U0ALICE',
      viewId: view.id,
      blockId: 'tools',
      actionId: 'add_note',
    });
    expect(d.status).toBe(200);
    const hasNote = (v: { view: { blocks?: unknown } } | undefined) =>
      Array.isArray(v?.view.blocks) &&
      v.view.blocks.some((b: { block_id?: string }) => b.block_id === 'note_block');
    const updated = await slack.waitFor((s) =>
      hasNote(s.topView('U0ALICE')) ? s.topView('U0ALICE') : undefined,
    );
    expect(updated.id).toBe(view.id);
    expect(updated.hash).not.toBe(oldHash);
    expect(updated.values.range_block?.range).toBe('today');
    const stale = await fetch(`${slack.apiUrl}views.update`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        view_id: view.id,
        hash: oldHash,
        view: JSON.stringify(updated.view),
      }).toString(),
    });
    expect(await stale.json()).toEqual({ ok: false, error: 'hash_conflict' });
    const submitted = await slack.submitView({ user: 'U0ALICE', viewId: view.id });
    expect(submitted.status).toBe(200);
    await slack.waitFor((s) =>
      s.messages('C0GENERAL').find((m) => m.text === 'range today kind none by U0ALICE'),
    );
  });

  it('button: in_channel reply reveals the command, a click by another user edits the message', async () => {
    await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'button' });
    const msg = await slack.waitFor((s) =>
      s.messages('C0GENERAL', { user: 'U0BOB' }).find((m) => m.text === 'Approval needed'),
    );
    expect(texts('C0GENERAL', 'U0BOB')).toEqual(['/tsai button', 'Approval needed']);
    const click = await slack.clickButton({
      user: 'U0BOB',
      channel: 'C0GENERAL',
      messageTs: msg.ts,
      actionId: 'approve',
    });
    expect(click.status).toBe(200);
    await slack.waitFor((s) => s.state.message('C0GENERAL', msg.ts)?.edits === 1);
    const edited = slack.state.message('C0GENERAL', msg.ts)!;
    expect(edited.text).toBe('Approved req-1 by <@U0BOB>');
    expect(edited.blocks).toEqual([]);
    expect(slack.calls.find((c) => c.method === 'chat.update')?.args).toMatchObject({ ts: msg.ts });
  });

  it('Bolt rejects forged, stale and unsigned requests with 401, and accepts a correct signature', async () => {
    const body = new URLSearchParams({ command: '/tsai', text: 'hello', user_id: 'U0ALICE' }).toString();
    const now = Math.floor(Date.now() / 1000);
    const forged = await slack.signedPost('/slack/events', body, {
      signature: signSlackRequest('wrong', body, now),
    });
    const stale = await slack.signedPost('/slack/events', body, { timestamp: now - 301 });
    const unsigned = await slack.signedPost('/slack/events', body, { signature: null });
    const noTimestamp = await slack.signedPost('/slack/events', body, { timestamp: null });
    expect([forged.status, stale.status, unsigned.status, noTimestamp.status]).toEqual([401, 401, 401, 401]);
    const noop = new URLSearchParams({
      command: '/tsai',
      text: 'noop',
      user_id: 'U0ALICE',
      channel_id: 'C0GENERAL',
    });
    const ok = await slack.signedPost('/slack/events', noop.toString());
    expect(ok.status).toBe(200);
  });

  it('a trigger_id used after 3 s gives expired_trigger_id; a used one gives exchanged_trigger_id', async () => {
    const d = await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'slow-modal' });
    expect(d.status).toBe(200);
    clockOffset = 3001;
    bot.releaseSlowModal();
    await slack.waitFor((s) => s.calls.find((c) => c.method === 'views.open'));
    await expect.poll(() => bot.seen.viewsOpenError).toBe('expired_trigger_id');
    expect(slack.topView('U0ALICE')).toBeUndefined();

    clockOffset = 0;
    const fresh = await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'modal' });
    await slack.waitFor((s) => s.topView('U0ALICE'));
    const again = await fetch(`${slack.apiUrl}views.open`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        trigger_id: fresh.triggerId,
        view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] },
      }),
    });
    expect(await again.json()).toEqual({ ok: false, error: 'exchanged_trigger_id' });
  });

  it('a response_url takes five posts; Bolt respond() throws on the sixth', async () => {
    await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'respond-many' });
    await expect.poll(() => bot.seen.respondStatuses.length).toBe(6);
    expect(bot.seen.respondStatuses).toEqual([200, 200, 200, 200, 200, 404]);
    expect(slack.responses.map((r) => r.error ?? 'ok')).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'used_url']);
    expect(texts('C0GENERAL', 'U0ALICE').filter((t) => t.startsWith('reply '))).toHaveLength(5);
  });

  it('Bolt verified its token with auth.test against the stand-in', () => {
    expect(authTest).toMatchObject({
      ok: true,
      user_id: slack.botUserId,
      bot_id: slack.botId,
      team_id: slack.teamId,
    });
  });
});

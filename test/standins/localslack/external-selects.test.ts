import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildStateValues,
  type LocalSlack,
  type OpenView,
  startLocalSlack,
  validateView,
} from '../../../standins/localslack/index.js';
import { patient } from '../../support/patience.js';
import { ASSETS, SECRET, startTestBot, type TestBot, TOKEN } from './bolt-app.js';

let slack: LocalSlack;
let bot: TestBot;
let modal: OpenView;

beforeAll(async () => {
  slack = patient(await startLocalSlack({ signingSecret: SECRET, botToken: TOKEN }));
  bot = await startTestBot(slack.apiUrl);
  slack.setBotEndpoint(bot.endpoint);
});
afterAll(async () => {
  await bot?.stop();
  await slack?.close();
});
beforeEach(async () => {
  slack.reset();
  bot.seen.suggestions.length = 0;
  bot.seen.selectActions.length = 0;
  await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'assets' });
  modal = await slack.waitFor((s) => s.topView('U0ALICE'), undefined, 'assets modal');
});

const ask = (actionId: string, blockId: string, value: string, viewId = modal.id) =>
  slack.sendOptionsRequest({ user: 'U0ALICE', viewId, blockId, actionId, value });

describe('type-ahead selects (external_select, multi_external_select)', () => {
  it("sends Slack's block_suggestion from the view and returns the app's options", async () => {
    const d = await ask('asset', 'asset_block', 'pu');
    expect(d.status).toBe(200);
    expect(d.options).toEqual(ASSETS.slice(0, 3));
    const body = bot.seen.suggestions[0]!;
    expect(Object.keys(body).sort()).toEqual(
      [
        'action_id',
        'api_app_id',
        'block_id',
        'container',
        'enterprise',
        'is_enterprise_install',
        'team',
        'token',
        'type',
        'user',
        'value',
        'view',
      ].sort(),
    );
    expect(body).toMatchObject({
      type: 'block_suggestion',
      action_id: 'asset',
      block_id: 'asset_block',
      value: 'pu',
      container: { type: 'view', view_id: modal.id },
      user: { id: 'U0ALICE', username: 'alice', name: 'alice', team_id: slack.teamId },
      team: { id: slack.teamId, domain: 'localslack' },
      api_app_id: slack.appId,
      view: { id: modal.id, type: 'modal', callback_id: 'assets_modal', hash: modal.hash },
    });
  });

  it('sends nothing below min_query_length (default 3); 0 asks on an empty query', async () => {
    expect(await ask('asset', 'asset_block', 'p')).toEqual({ status: 0, body: '', delivered: false });
    expect(bot.seen.suggestions).toHaveLength(0);
    expect((await ask('more', 'more_block', '')).options).toEqual(ASSETS);
    expect(bot.seen.suggestions.map((b) => b.value)).toEqual(['']);
  });

  it('the user picks offered options; the submission carries them as Slack sends them', async () => {
    await ask('asset', 'asset_block', 'pump');
    await expect(
      slack.pickOptions({
        user: 'U0ALICE',
        viewId: modal.id,
        blockId: 'asset_block',
        actionId: 'asset',
        values: ['valve-9'],
      }),
    ).rejects.toThrow(/"valve-9" was not offered .*pump-1, pump-2, pump-3/);
    expect(
      await slack.pickOptions({
        user: 'U0ALICE',
        viewId: modal.id,
        blockId: 'asset_block',
        actionId: 'asset',
        values: ['pump-2'],
      }),
    ).toBeUndefined(); // an input block: Slack sends nothing until the submission
    await ask('more', 'more_block', 'pump 3');
    slack.typeIntoView({
      user: 'U0ALICE',
      viewId: modal.id,
      blockId: 'more_block',
      actionId: 'more',
      value: ['valve-9', 'pump-3'],
    });
    // A later query replaces the list; what was picked stays picked.
    await ask('asset', 'asset_block', 'valve');
    const state = buildStateValues(slack.topView('U0ALICE')!.view.blocks, slack.topView('U0ALICE')!.values);
    expect(state.asset_block?.asset).toEqual({ type: 'external_select', selected_option: ASSETS[1] });
    expect(state.more_block?.more).toEqual({
      type: 'multi_external_select',
      selected_options: [ASSETS[3], ASSETS[2]],
    });
    const d = await slack.submitView({ user: 'U0ALICE', viewId: modal.id });
    expect([d.status, d.errors]).toEqual([200, undefined]);
    const msg = await slack.waitFor((s) => s.messages('C0GENERAL').find((m) => m.text.startsWith('assets ')));
    expect(msg.text).toBe('assets Pump 2=pump-2 more Valve 9=valve-9,Pump 3=pump-3 by U0ALICE');
  });

  it('initial options are submitted when the user picks nothing, and are always pickable', async () => {
    expect(buildStateValues(modal.view.blocks, modal.values)).toMatchObject({
      asset_block: { asset: { type: 'external_select', selected_option: ASSETS[0] } },
      more_block: { more: { type: 'multi_external_select', selected_options: [ASSETS[3]] } },
      tools: { jump: { type: 'external_select', selected_option: null } },
    });
    await slack.pickOptions({
      user: 'U0ALICE',
      viewId: modal.id,
      blockId: 'asset_block',
      actionId: 'asset',
      values: ['pump-1'],
    });
    await slack.submitView({ user: 'U0ALICE', viewId: modal.id });
    const msg = await slack.waitFor((s) => s.messages('C0GENERAL').find((m) => m.text.startsWith('assets ')));
    expect(msg.text).toBe('assets Pump 1=pump-1 more Valve 9=valve-9 by U0ALICE');
  });

  it("refuses what Slack's client cannot do: two options in a single select, more than max_selected_items", async () => {
    await ask('more', 'more_block', '');
    await expect(
      slack.pickOptions({
        user: 'U0ALICE',
        viewId: modal.id,
        blockId: 'more_block',
        actionId: 'more',
        values: ['pump-1', 'pump-2', 'pump-3', 'valve-9'],
      }),
    ).rejects.toThrow(/at most 3 options/);
    await ask('asset', 'asset_block', 'pump');
    await expect(
      slack.pickOptions({
        user: 'U0ALICE',
        viewId: modal.id,
        blockId: 'asset_block',
        actionId: 'asset',
        values: ['pump-1', 'pump-2'],
      }),
    ).rejects.toThrow(/takes one option/);
    await expect(
      slack.submitView({ user: 'U0ALICE', viewId: modal.id, values: { asset_block: { asset: 'made-up' } } }),
    ).rejects.toThrow(/"made-up" was not offered/);
  });

  it('a select in an actions block sends block_actions with the selected option when picked', async () => {
    await ask('jump', 'tools', 'v');
    const d = await slack.pickOptions({
      user: 'U0ALICE',
      viewId: modal.id,
      blockId: 'tools',
      actionId: 'jump',
      values: ['valve-9'],
    });
    expect(d?.status).toBe(200);
    await expect.poll(() => bot.seen.selectActions.length).toBe(1);
    expect(bot.seen.selectActions[0]).toMatchObject({
      type: 'block_actions',
      container: { type: 'view', view_id: modal.id },
      actions: [
        { type: 'external_select', action_id: 'jump', block_id: 'tools', selected_option: ASSETS[3] },
      ],
      view: { state: { values: { tools: { jump: { selected_option: ASSETS[3] } } } } },
    });
  });

  it('flattens option_groups, and flags answers that break Slack’s option limits', async () => {
    expect((await ask('asset', 'asset_block', 'grouped')).options).toEqual([ASSETS[0], ASSETS[1], ASSETS[3]]);
    const many = await ask('asset', 'asset_block', 'many');
    expect([many.status, many.options, many.errors?._]).toEqual([
      200,
      [],
      expect.stringMatching(/more than 100 options/),
    ]);
    const long = await ask('asset', 'asset_block', 'long');
    expect(long.errors?._).toMatch(/text must be 1-75 chars/);
  });

  it('works from a published Home view too, over HTTP', async () => {
    await slack.openHome({ user: 'U0ALICE' });
    const home = await slack.waitFor((s) => s.state.home.get('U0ALICE'));
    const post = async (action: string, body: unknown) => {
      const r = await fetch(`${slack.url}/_local/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return (await r.json()) as Record<string, unknown>;
    };
    const offered = await post('options', {
      user: 'U0ALICE',
      viewId: home.id,
      blockId: 'home_tools',
      actionId: 'jump',
      value: 'pump 1',
    });
    expect(offered.options).toEqual([ASSETS[0]]);
    const picked = await post('pick', {
      user: 'U0ALICE',
      viewId: home.id,
      blockId: 'home_tools',
      actionId: 'jump',
      values: ['pump-1'],
    });
    expect(picked).toMatchObject({ status: 200, delivered: true });
    await expect.poll(() => bot.seen.selectActions.length).toBe(1);
    expect(bot.seen.selectActions[0]).toMatchObject({
      container: { type: 'view', view_id: home.id },
      view: { type: 'home' },
      actions: [{ action_id: 'jump', selected_option: ASSETS[0] }],
    });
    expect(bot.seen.selectActions[0]).not.toHaveProperty('response_url');
  });
});

describe("Slack's checks on type-ahead selects", () => {
  const view = (element: Record<string, unknown>) => ({
    type: 'modal',
    title: { type: 'plain_text', text: 'T' },
    submit: { type: 'plain_text', text: 'Go' },
    blocks: [
      {
        type: 'input',
        block_id: 'b',
        label: { type: 'plain_text', text: 'L' },
        element: { action_id: 'a', ...element },
      },
    ],
  });
  const opt = (text: string, value: string) => ({ text: { type: 'plain_text', text }, value });

  it('accepts what Slack accepts', () => {
    expect(
      validateView(view({ type: 'external_select', min_query_length: 0, initial_option: opt('A', 'a') })),
    ).toBeNull();
    expect(
      validateView(
        view({ type: 'multi_external_select', max_selected_items: 2, initial_options: [opt('A', 'a')] }),
      ),
    ).toBeNull();
    expect(
      validateView(view({ type: 'external_select', initial_option: opt('x'.repeat(75), 'v'.repeat(150)) })),
    ).toBeNull();
  });

  it.each([
    [{ type: 'external_select', options: [opt('A', 'a')] }, /takes no options/],
    [{ type: 'external_select', min_query_length: -1 }, /min_query_length/],
    [{ type: 'external_select', min_query_length: 1.5 }, /min_query_length/],
    [{ type: 'external_select', initial_option: opt('x'.repeat(76), 'a') }, /text must be 1-75/],
    [{ type: 'external_select', initial_option: opt('A', 'v'.repeat(151)) }, /value must be 1-150/],
    [{ type: 'external_select', initial_options: [opt('A', 'a')] }, /initial_option, not initial_options/],
    [{ type: 'multi_external_select', initial_option: opt('A', 'a') }, /initial_options, not initial_option/],
    [{ type: 'multi_external_select', max_selected_items: 0 }, /max_selected_items/],
    [
      { type: 'external_select', initial_option: { text: { type: 'mrkdwn', text: '*A*' }, value: 'a' } },
      /plain_text/,
    ],
  ])('refuses %j with invalid_blocks', (element, why) => {
    const bad = validateView(view(element));
    expect(bad?.error).toBe('invalid_blocks');
    expect(bad?.messages.join('\n')).toMatch(why);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldActionId, MODAL_CALLBACK } from '../../src/slack/forms/views/ids.js';
import { decodeMeta } from '../../src/slack/forms/views/metadata.js';
import { checkBlockKitLimits } from '../../src/wire/block-kit.js';
import { SEED } from '../../standins/emulator/index.js';
import type { OpenView } from '../../standins/localslack/index.js';
import { DEFAULT_CHANNEL, DEFAULT_USER, type Harness, startHarness } from '../support/harness.js';

/**
 * The forms' type-ahead fields through the real bot: Slack's block_suggestion requests (signed, over
 * HTTP) answered from the team's catalog, which ordinary commands filled; picks that create exactly
 * the flow typed IDs create.
 */
const S = SEED;
const W1 = S.workspaces.pumpStation; // "Pump station A"
const W2 = S.workspaces.sandbox; // "Sandbox"
const T = S.signals.temperature;
const P = S.signals.pressure;
const A = S.assessments.temperature;
const M0 = S.models.temperatureCommon; // in W1
const USER = DEFAULT_USER;
const CH = DEFAULT_CHANNEL;
const RANGE = '2026-11-20 06:00 to 2026-11-20 18:00';

// biome-ignore lint/suspicious/noExplicitAny: tests read Block Kit JSON by path
type Block = Record<string, any>;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  // The catalog learns from ordinary use: lookups name the workspaces and the common model (with its
  // workspace and assessment), a learn the labels of its signals.
  await h.commandAndReply(`workspace show ${W1}`);
  await h.commandAndReply(`workspace show ${W2}`);
  await h.commandAndReply(`model common ${A}`);
  await h.commandAndReply(`learn workspace=${W1} signals=${T}:temperature,${P}:pressure range="${RANGE}"`);
  await h.clearServiceRequests();
});
afterAll(async () => {
  await h?.close();
});

async function openForm(text: string, callbackId: string): Promise<OpenView> {
  const before = h.slack.topView(USER)?.id;
  expect((await h.command(text)).status).toBe(200);
  return h.slack.waitFor(
    (s) => {
      const v = s.topView(USER);
      if (!v || v.id === before || v.view.callback_id !== callbackId) return undefined;
      return decodeMeta(v.view.private_metadata as string)?.timeZone ? v : undefined;
    },
    5000,
    `form ${callbackId}`,
  );
}

async function options(v: OpenView, blockId: string, value: string) {
  const d = await h.slack.sendOptionsRequest({
    user: USER,
    viewId: v.id,
    blockId,
    actionId: fieldActionId(blockId),
    value,
  });
  expect(d.status).toBe(200);
  expect(d.errors).toBeUndefined();
  return d.options ?? [];
}
const texts = (os: { text: { text: string } }[]) => os.map((o) => o.text.text);

const flowsPosted = async () =>
  (await h.serviceRequests())
    .filter((r) => r.method === 'POST' && r.path.endsWith('/flows'))
    .map((r) => r.body);

describe('type-ahead fields in the forms', () => {
  it('every ID field is a select the bot fills as the user types; nothing is asked of the service', async () => {
    const v = await openForm('learn', MODAL_CALLBACK.learn);
    const el = (id: string) => (v.view.blocks as Block[]).find((b) => b.block_id === id)?.element;
    expect(el('workspace')).toMatchObject({ type: 'external_select', min_query_length: 0 });
    expect(el('signals')).toMatchObject({ type: 'multi_external_select', min_query_length: 0 });
    expect(el('dataspec_id')).toMatchObject({ type: 'external_select' });
    expect(checkBlockKitLimits(v.view, 'modal')).toEqual([]);

    // Opened: the most recent first (the learn used Pump station A last). Typed: matched on name or ID,
    // a part of either.
    expect(texts(await options(v, 'workspace', ''))).toEqual([`Pump station A · ${W1}`, `Sandbox · ${W2}`]);
    expect(texts(await options(v, 'workspace', 'pump'))).toEqual([`Pump station A · ${W1}`]);
    expect(texts(await options(v, 'workspace', W1.slice(0, 12)))).toHaveLength(2);
    expect(texts(await options(v, 'workspace', W1.slice(-4)))).toEqual([`Pump station A · ${W1}`]);
    expect(texts(await options(v, 'signals', 'TEMP'))).toEqual([`temperature · ${T}`]);
    // A signal's option carries its label; an ID never seen is offered as "use ID …", with a typed label too.
    expect((await options(v, 'signals', 'press'))[0]!.value).toBe(`${P}:pressure`);
    const unseen = '1050000000000000099';
    const use = await options(v, 'signals', unseen);
    expect(use[0]).toMatchObject({ text: { text: `use ID ${unseen}` }, value: unseen });
    expect(use[0]!.description).toMatchObject({ text: 'not seen by the bot yet' });
    expect((await options(v, 'signals', `${unseen}: Motor current`))[0]).toMatchObject({
      text: { text: `Motor current · ${unseen}` },
      value: `${unseen}:Motor current`,
    });
    expect(await options(v, 'workspace', 'no such place')).toEqual([]);
    expect(await h.askedOfService()).toEqual([]);
  });

  it("the channel's default comes first, then the most recent", async () => {
    await h.commandAndReply(`use workspace=${W1}`);
    try {
      const v = await openForm('learn', MODAL_CALLBACK.learn);
      const os = await options(v, 'workspace', '');
      expect(texts(os)).toEqual([`Pump station A · ${W1}`, `Sandbox · ${W2}`]);
      expect(os[0]!.description).toMatchObject({ text: 'channel default' });
    } finally {
      await h.commandAndReply('use clear');
    }
  });

  it('a chosen workspace narrows the models offered to its own; an assessment narrows EVAL to its models', async () => {
    // The anomaly model moves to the other workspace: the service's answer links it there.
    const other = S.models.temperatureAnomaly;
    await h.commandAndReply(`model move ${other} to ${W2}`);
    const v = await openForm(`score workspace=${W1}`, MODAL_CALLBACK.score);
    const narrowed = await options(v, 'model', '');
    expect(narrowed.map((o) => o.value)).toEqual([M0]);
    expect(texts(narrowed)[0]).toContain('Pump station A/anomaly/M[0]');

    // The user picks the other workspace: its models are offered instead.
    await h.slack.pickOptions({
      user: USER,
      viewId: v.id,
      blockId: 'workspace',
      actionId: fieldActionId('workspace'),
      values: [(await options(v, 'workspace', 'sandbox'))[0]!.value],
    });
    expect((await options(v, 'model', '')).map((o) => o.value)).toEqual([other]);

    const e = await openForm(`eval ${A}`, MODAL_CALLBACK.eval);
    expect((await options(e, 'model', '')).map((o) => o.value)).toEqual([M0]);
  });

  it('a form filled by picking names creates exactly the flow the command with typed IDs creates', async () => {
    await h.clearServiceRequests();
    await h.commandAndReply(`learn workspace=${W1} signals=${T}:temperature,${P}:pressure range="${RANGE}"`);
    const typed = await flowsPosted();
    expect(typed).toHaveLength(1);
    await h.clearServiceRequests();

    const v = await openForm('learn', MODAL_CALLBACK.learn);
    const pickOne = async (blockId: string, text: string) => (await options(v, blockId, text))[0]!.value;
    const before = new Set(h.slack.messages(CH, { user: USER }).map((m) => m.ts));
    const d = await h.slack.submitView({
      user: USER,
      viewId: v.id,
      values: {
        workspace: { [fieldActionId('workspace')]: await pickOne('workspace', 'pump st') },
        signals: {
          [fieldActionId('signals')]: [
            await pickOne('signals', 'temp'),
            await pickOne('signals', 'pressure'),
          ],
        },
        range_1: { tsai_modal_range: RANGE },
      },
    });
    expect(d.errors).toBeUndefined();
    await h.slack.waitFor(
      (s) => s.messages(CH, { user: USER }).find((m) => !before.has(m.ts) && m.user !== USER),
      5000,
      'the flow message',
    );
    expect(await flowsPosted()).toEqual(typed);
  });

  it('a name in a command prefills the form with the ID it stands for, shown by name', async () => {
    const v = await openForm('learn workspace="Pump station A"', MODAL_CALLBACK.learn);
    const held = (v.view.blocks as Block[]).find((b) => b.block_id === 'workspace')?.element.initial_option;
    expect(held).toMatchObject({ value: W1, text: { text: `Pump station A · ${W1}` } });
  });
});

describe('bad or foreign requests', () => {
  const suggest = (payload: Record<string, unknown>) =>
    h.slack.signedPost('/slack/events', new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
  const base = {
    type: 'block_suggestion',
    user: { id: USER, username: 'alice' },
    api_app_id: 'A0LOCAL',
    token: 'local-verification-token',
    container: { type: 'view', view_id: 'V0FORGED' },
    action_id: fieldActionId('workspace'),
    block_id: 'workspace',
    value: 'pump',
  };

  it('malformed payloads get an empty list, never an error, and the bot goes on', async () => {
    const team = { id: h.slack.teamId, domain: 'local' };
    const answers = await Promise.all(
      [
        { ...base, team }, // no view at all
        { ...base, team, view: { private_metadata: '{not json', state: { values: 'nope' } } },
        { ...base, team, view: { private_metadata: '{"k":"learn","o":"command","r":[1],"v":99}' } },
        { ...base, team, block_id: 'nonsense' },
        { ...base, team, value: 42 },
        { ...base, team: null, user: { id: USER } },
      ].map(suggest),
    );
    for (const a of answers) expect(a.status).toBe(200);
    const lists = answers.map((a) => (a.json as { options?: unknown[] } | undefined)?.options);
    // Without a readable view the field is still known by its block, so "pump" finds its workspace; a
    // value that is no text reads as nothing typed (the most recent); an unknown block or no team, nothing.
    expect(lists.map((l) => l?.length)).toEqual([1, 1, 1, 0, 2, 0]);
    expect((await h.commandAndReply('help')).ephemeralTo).toBe(USER);
  });

  it("another team is offered none of this team's resources", async () => {
    const answer = await suggest({
      ...base,
      team: { id: 'T0OTHER', domain: 'other' },
      user: { id: USER, team_id: 'T0OTHER' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ options: [] });
    const id = await suggest({ ...base, team: { id: 'T0OTHER', domain: 'other' }, value: W1 });
    // An ID can always be used; the other team is not told its name.
    expect(id.json).toEqual({
      options: [
        {
          text: { type: 'plain_text', text: `use ID ${W1}` },
          value: W1,
          description: { type: 'plain_text', text: 'not seen by the bot yet' },
        },
      ],
    });
  });
});

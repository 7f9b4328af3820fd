import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fieldActionId, MODAL_ACTION } from '../../src/slack/forms/views/ids.js';
import { generateManifest } from '../../src/slack/manifest/generate.js';
import { manifestFunctions } from '../../src/slack/workflows/manifest.js';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import {
  type AddedBot,
  formOpened,
  type StandAnswer,
  type StandRequest,
  startAddedBot,
} from '../support/added-bot.js';
import { forecastBody, renameModelBody } from '../support/added-operations.js';
import type { Harness } from '../support/harness.js';
import { manifestProblems } from '../support/manifest-schema/index.js';

/**
 * An operation is its registry entry: two the bot does not ship (test/support/added-operations.ts) are
 * registered before the bot starts and driven through the real bot over signed HTTP. The service side of
 * their calls is a small server of this test's own; everything else goes on to the emulator.
 */

const ACC = SEED.accountId;
const W = SEED.workspaces.pumpStation;
const T = SEED.signals.temperature;
const FORBIDDEN = '1353853719423319999';
/** The first flow the service creates; each creation gets the next ID. */
const FIRST_FLOW_ID = 1490000000000000100n;
/** A horizon the service refuses (403), so the form's inputs are offered again. */
const REFUSED_HORIZON = '403h';
const MODEL = '1490000000000000043';
const DATASPEC = '1490000000000000044';
/** What every ANOMALYFORECAST flow yields besides its model: a kind of output no shipped operation has. */
const FORECAST = '1490000000000000046';
const USER = 'U0ALICE';

interface Seen {
  method: string;
  path: string;
  body: unknown;
}

/** The service as the added operations need it: a DELETE of a workspace, and ANOMALYFORECAST flows. */
function serviceOf() {
  const seen: Seen[] = [];
  /** The flows created, by ID, with the horizon each was asked for. */
  const created = new Map<string, string>();
  const answer = ({ method, path, body }: StandRequest): StandAnswer => {
    // A rename shares its method and path with the shipped move: told apart by its body, as here.
    const model = new RegExp(`^/api/1\\.3/accounts/${ACC}/models/(\\d+)$`).exec(path);
    if (method === 'PUT' && model && typeof body?.name === 'string') {
      seen.push({ method: 'PUT', path, body });
      const checked = renameModelBody.safeParse(body);
      if (!checked.success) return { status: 400, body: { message: checked.error.message } };
      return { status: 200, body: { id: model[1], name: body.name } };
    }
    const del = new RegExp(`^/api/1\\.3/accounts/${ACC}/workspace/(\\d+)$`).exec(path);
    if (method === 'DELETE' && del) {
      seen.push({ method: 'DELETE', path, body });
      if (del[1] === FORBIDDEN) return { status: 403, body: { message: 'Forbidden' } };
      return { status: 204 };
    }
    if (
      method === 'POST' &&
      path === `/api/1.3/accounts/${ACC}/flows` &&
      body?.flowType === 'ANOMALYFORECAST'
    ) {
      seen.push({ method: 'POST', path, body });
      const checked = forecastBody.safeParse(body);
      if (!checked.success) return { status: 400, body: { message: checked.error.message } };
      if (body.spec.horizon === REFUSED_HORIZON) return { status: 403, body: { message: 'Forbidden' } };
      const id = String(FIRST_FLOW_ID + BigInt(created.size));
      created.set(id, body.spec.horizon);
      return { status: 200, body: { id, status: 'CREATED', name: body.name, flowType: 'ANOMALYFORECAST' } };
    }
    const flow = new RegExp(`^/api/1\\.3/accounts/${ACC}/flows/(\\d+)$`).exec(path);
    if (method === 'GET' && flow && created.has(flow[1]!))
      return {
        status: 200,
        body: {
          id: flow[1],
          status: 'COMPLETED',
          flowType: 'ANOMALYFORECAST',
          outputs: [
            { type: 'entities.model', id: MODEL, name: 'pump forecaster', created: true, live: false },
            { type: 'entities.dataspec', id: DATASPEC, name: 'forecast data', created: true },
            {
              type: 'entities.forecast',
              id: FORECAST,
              name: 'pump-1, the next hours',
              horizon: created.get(flow[1]!),
            },
          ],
        },
      };
    return undefined;
  };
  return { answer, seen };
}

type View = Awaited<ReturnType<typeof formOpened>>;
function initialOf(v: View, blockId: string): unknown {
  const block = (v.view.blocks as { block_id?: string; element?: Record<string, unknown> }[]).find(
    (b) => b.block_id === blockId,
  );
  const el = block?.element ?? {};
  const one = el.initial_option as { value?: string } | undefined;
  const many = el.initial_options as { value: string }[] | undefined;
  return el.initial_value ?? one?.value ?? many?.map((o) => o.value).join('\n');
}

function blockOf(v: View, blockId: string) {
  return (v.view.blocks as { block_id?: string }[]).find((b) => b.block_id === blockId);
}

/** What a person types into a text field, and what they pick in a type-ahead one (the first option offered). */
const typed = (blockId: string, value: string) => ({ [blockId]: { [fieldActionId(blockId)]: value } });
async function picked(v: View, blockId: string, value: string, multi = false) {
  const actionId = fieldActionId(blockId);
  const d = await h.slack.sendOptionsRequest({ user: USER, viewId: v.id, blockId, actionId, value });
  const first = d.options?.[0]?.value;
  if (d.status !== 200 || !first) throw new Error(`the bot offered nothing for "${value}" in ${blockId}`);
  return { [blockId]: { [actionId]: multi ? [first] : first } };
}

const seenText = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;

let h: Harness;
let service: ReturnType<typeof serviceOf>;
let bot: AddedBot;

beforeAll(async () => {
  service = serviceOf();
  bot = await startAddedBot({
    operations: [new URL('../support/added-operations.ts', import.meta.url).href],
    answer: service.answer,
    env: { TSAI_APPROVERS: USER },
  });
  h = bot.h;
});

afterAll(() => bot?.close());

describe('operations added by their registry entries alone', () => {
  it('help lists them with usage lines read from their arguments, and explains each', async () => {
    const all = seenText(await h.commandAndReply('help'));
    expect(all).toContain('/tsai workspace delete &lt;workspace_id&gt;');
    expect(all).toContain('/tsai forecast workspace=&lt;id&gt; (signals=');
    expect(all).toContain('horizon=&lt;text&gt;');
    const one = seenText(await h.commandAndReply('help forecast'));
    expect(one).toContain('Train a forecasting anomaly model');
    expect(one).toContain('horizon=6h');
  });

  it('a plain request is read into it by the words its entry declares, and nothing is sent before a click', async () => {
    const before = service.seen.length;
    const asked = h.slack.postUserMessage({
      user: USER,
      channel: `D${USER}`,
      text: `please forecast signal ${T} at workspace ${W} using last week`,
    });
    const reading = await h.slack.waitFor(
      () =>
        h.slack
          .messages(`D${USER}`)
          .find((m) => m.ts > asked.ts && m.user === h.slack.botUserId && /I read this as/.test(seenText(m))),
      60_000,
      'the reading',
    );
    expect(seenText(reading)).toContain(`forecast workspace=${W} signals=${T} range=\\"last week\\"`);
    expect(service.seen.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('a misspelt command is answered with the added one as the likely meaning', async () => {
    const reply = seenText(await h.commandAndReply(`forcast workspace=${W}`));
    expect(reply).toContain('forecast');
  });

  it('the mutation: DELETE sent as declared, shown in the channel, audited; a 403 names its role', async () => {
    const done = seenText(await h.commandAndReply(`workspace delete ${W}`));
    expect(done).toContain('deleted a workspace');
    expect(service.seen).toContainEqual({
      method: 'DELETE',
      path: `/api/1.3/accounts/${ACC}/workspace/${W}`,
      body: undefined,
    });
    const refused = seenText(await h.commandAndReply(`workspace delete ${FORBIDDEN}`));
    expect(refused).toContain('Manager or Owner');
    // `/tsai audit` shows decisions and flows; the bot's store holds every audited operation.
    const audited = await h.running.bot.store.listAudit({ limit: 10 });
    expect(audited.map((e) => [e.operation, e.outcome])).toEqual(
      expect.arrayContaining([
        ['workspace.delete', 'ok'],
        ['workspace.delete', 'error'],
      ]),
    );
  });

  it('an operation that shares its method and path with a shipped one: each sends its own body, and each is answered', async () => {
    const M = SEED.models.temperatureAnomaly;
    const renamed = seenText(await h.commandAndReply(`model rename ${M} name="pump-3 baseline"`));
    expect(renamed).toContain('renamed a model');
    expect(service.seen).toContainEqual({
      method: 'PUT',
      path: `/api/1.3/accounts/${ACC}/models/${M}`,
      body: { name: 'pump-3 baseline' },
    });
    // The shipped move, on the same method and path, still reaches the emulator with its own body.
    const moved = seenText(await h.commandAndReply(`model move ${M} to ${SEED.workspaces.sandbox}`));
    expect(moved).toContain('moved a model');
    const state = (await (await fetch(`${h.emulator.url}/_emulator/state`)).json()) as {
      models: { id: string; workspace: string }[];
    };
    expect(state.models.find((m) => m.id === M)?.workspace).toBe(SEED.workspaces.sandbox);
    await fetch(`${h.emulator.url}/_emulator/reset`, { method: 'POST' });
  });

  it('the flow: its form opens with its fields in order, and its command is followed to its declared outputs, chained to the next step', async () => {
    const before = h.slack.topView(USER)?.id;
    expect((await h.command('forecast')).status).toBe(200);
    const view = await formOpened(h, USER, 'tsai_modal_test-forecast', before);
    const ids = (view.view.blocks as { block_id?: string }[]).map((b) => b.block_id);
    // Submitted, the form is read by the entry's arguments and parsed as its command: a horizon is needed.
    const refused = await h.slack.submitView({
      user: USER,
      viewId: view.id,
      values: { range_1: { [MODAL_ACTION.range]: 'last week' } },
    });
    expect(Object.keys(refused.errors ?? {})).toEqual(expect.arrayContaining(['horizon', 'workspace']));
    expect(ids.indexOf('name')).toBeLessThan(ids.indexOf('workspace'));
    expect(ids.indexOf('workspace')).toBeLessThan(ids.indexOf('horizon'));
    expect(ids).toContain('data_header');

    const posted = new Set(h.slack.messages('C0OPS').map((m) => m.ts));
    const reply = seenText(
      await h.commandAndReply(
        `forecast workspace=${W} signals=${T}:temperature range="last week" horizon=6h`,
      ),
    );
    expect(reply).toContain('started an ANOMALYFORECAST flow');
    const created = service.seen.find(
      (r) => r.method === 'POST' && (r.body as { spec?: { horizon?: string } }).spec?.horizon === '6h',
    );
    expect(created?.body).toMatchObject({
      flowType: 'ANOMALYFORECAST',
      spec: { workspace: W, horizon: '6h' },
    });

    const end = await h.slack.waitFor(
      (s) =>
        s
          .messages('C0OPS')
          .find(
            (m) =>
              !posted.has(m.ts) && seenText(m).includes('completed after') && seenText(m).includes(MODEL),
          ),
      10_000,
      'the end notice',
    );
    const notice = seenText(end);
    expect(notice).toContain('Model created');
    expect(notice).toContain(DATASPEC);
    const buttons = (end.blocks ?? []).flatMap((b) =>
      ((b as { elements?: { action_id?: string; value?: string }[] }).elements ?? []).map((e) => e),
    );
    const score = buttons.find((b) => b.action_id === 'tsai_flow_score');
    expect(score && JSON.parse(score.value!)).toEqual({ model: MODEL, workspace: W, dataspec: DATASPEC });

    // Chained: the next step's form opens with what the added flow yielded.
    const shown = h.slack.topView(USER)?.id;
    await h.slack.clickButton({
      user: USER,
      channel: 'C0OPS',
      messageTs: end.ts,
      actionId: 'tsai_flow_score',
    });
    const next = await formOpened(h, USER, 'tsai_modal_score', shown);
    expect(initialOf(next, 'model')).toBe(MODEL);
    expect(initialOf(next, 'dataspec_id')).toBe(DATASPEC);

    const audit = seenText(await h.commandAndReply('audit'));
    expect(audit).toContain('started an ANOMALYFORECAST flow');
    // The worker thread ran it: it knew the added operation from the bot's setup, as the acking thread did.
    const handled = h.logs
      .map((l) => JSON.parse(l) as { msg?: string; op?: string; thread?: string })
      .filter((l) => l.msg === 'operation handled' && l.op === 'test-forecast');
    expect(handled.length).toBeGreaterThan(0);
    expect(handled.every((l) => l.thread === 'follow-ups')).toBe(true);
  });

  it('its shortcut and step are in the manifest the code generates, which Slack’s schema accepts', async () => {
    const { manifest } = await generateManifest();
    const features = manifest.features as { shortcuts: { name: string; callback_id: string }[] };
    expect(features.shortcuts).toContainEqual(
      expect.objectContaining({ name: 'Forecast', callback_id: 'tsai_shortcut_test-forecast' }),
    );
    expect(Object.keys(manifest.functions as object)).toContain('tsai_forecast');
    expect(manifestProblems(manifest)).toEqual([]);
  });

  it('a kind of output no shipped operation has, declared by its entry alone: as a workflow step’s output and in the manifest’s functions, in its end notice and in the Home', async () => {
    // The manifest's functions, generated as manifest.yml's are: the added flow is a step that hands on
    // its forecast, named and typed by its declaration.
    const functions = manifestFunctions();
    const outputs = functions.tsai_forecast!.output_parameters;
    expect(Object.keys(outputs.properties)).toEqual(
      expect.arrayContaining([
        'flow_id',
        'status',
        'model_id',
        'forecast_id',
        'forecast_name',
        'forecast_horizon',
      ]),
    );
    expect(outputs.properties.forecast_id).toMatchObject({ type: 'string', title: 'Forecast ID' });
    expect(outputs.properties.forecast_horizon).toMatchObject({ type: 'string', title: 'Forecast horizon' });
    // What ships knows nothing of it: no product file names it.
    const shipped = parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as {
      functions: Record<string, unknown>;
    };
    expect(shipped.functions).not.toHaveProperty('tsai_forecast');

    // Workflow Builder runs it as a step (the local Slack checks the outputs against the functions).
    h.slack.setFunctions(functions);
    const ex = await h.slack.runFunction({
      callbackId: 'tsai_forecast',
      user: USER,
      inputs: {
        workspace: W,
        signals: `${T}:temperature`,
        range: 'last week',
        horizon: '9h',
        name: 'forecast-step',
        channel: 'C0OPS',
      },
    });
    const end = await h.slack.waitFor(
      (s) => {
        const e = s.execution(ex.id);
        return e && e.state !== 'running' ? e : undefined;
      },
      20_000,
      'the forecast step to end',
    );
    expect(end.error).toBeUndefined();
    expect(end.outputs).toMatchObject({
      status: 'COMPLETED',
      model_id: MODEL,
      forecast_id: FORECAST,
      forecast_name: 'pump-1, the next hours',
      forecast_horizon: '9h',
    });

    // Its end notice shows it, under its declared heading, in the announcement's thread.
    const notice = await h.slack.waitFor(
      (s) =>
        s
          .messages('C0OPS')
          .find(
            (m) =>
              m.threadTs !== undefined &&
              seenText(m).includes('completed after') &&
              seenText(m).includes('`9h`'),
          ),
      20_000,
      'the end notice of the forecast step',
    );
    expect(seenText(notice)).toContain('Forecast made');
    expect(seenText(notice)).toContain(`pump-1, the next hours \`${FORECAST}\``);
    expect(seenText(notice)).toContain('Forecast horizon');

    // The Home of the person who started it shows it with the flow.
    await h.slack.openHome({ user: USER });
    const home = await h.slack.waitFor(
      (s) => {
        const v = s.state.home.get(USER);
        return v && JSON.stringify(v.view.blocks).includes('`9h`') ? v : undefined;
      },
      20_000,
      'the Home with the forecast',
    );
    expect(JSON.stringify(home.view.blocks)).toContain('Forecast made');
    expect(JSON.stringify(home.view.blocks)).toContain(FORECAST);

    // Everything the entry read, it declared: nothing was left out.
    expect(h.logs.filter((l) => l.includes('does not declare'))).toEqual([]);
  });

  it("its global shortcut opens its form, empty, as a built-in form's does", async () => {
    const before = h.slack.topView(USER)?.id;
    const sent = await h.slack.sendShortcut({ user: USER, callbackId: 'tsai_shortcut_test-forecast' });
    expect(sent.status).toBe(200);
    const view = await formOpened(h, USER, 'tsai_modal_test-forecast', before);
    const ids = (view.view.blocks as { block_id?: string }[]).map((b) => b.block_id);
    expect(ids).toEqual(expect.arrayContaining(['horizon', 'workspace']));
    expect(initialOf(view, 'horizon')).toBeUndefined();
  });

  it("its arguments' own fields (a text, a type-ahead): prefilled, shown as declared, checked, sent, kept for a reopen", async () => {
    const before = h.slack.topView(USER)?.id;
    expect((await h.command('forecast horizon=3h')).status).toBe(200);
    const view = await formOpened(h, USER, 'tsai_modal_test-forecast', before);
    expect(blockOf(view, 'horizon')).toMatchObject({
      type: 'input',
      label: { text: 'Horizon' },
      hint: { text: 'How far ahead it forecasts.' },
      element: { type: 'plain_text_input', placeholder: { text: '6h' } },
    });
    expect(initialOf(view, 'horizon')).toBe('3h');
    expect(blockOf(view, 'baseline_model')).toMatchObject({
      label: { text: 'Baseline model' },
      element: { type: 'external_select' },
    });

    const values = async (v: View) => ({
      ...(await picked(v, 'workspace', W)),
      ...(await picked(v, 'signals', `${T}:temperature`, true)),
      ...(await picked(v, 'baseline_model', MODEL)),
      range_1: { [MODAL_ACTION.range]: 'last week' },
    });
    const filled = await values(view);
    const tooLong = await h.slack.submitView({
      user: USER,
      viewId: view.id,
      values: { ...filled, ...typed('horizon', 'thirteen days') },
    });
    expect(tooLong.errors).toEqual({ horizon: 'The horizon is 13 characters; keep it to 12.' });

    // Refused by the service: the person is offered the form again with everything typed.
    const shown = new Set(h.slack.messages('C0OPS').map((m) => m.ts));
    const refused = await h.slack.submitView({
      user: USER,
      viewId: view.id,
      values: { ...filled, ...typed('horizon', REFUSED_HORIZON) },
    });
    expect(refused.errors).toBeUndefined();
    const note = await h.slack.waitFor(
      (s) =>
        s
          .messages('C0OPS')
          .find((m) => !shown.has(m.ts) && JSON.stringify(m.blocks ?? []).includes(MODAL_ACTION.reopen)),
      10_000,
      'the refusal with its reopen button',
    );
    expect(note.ephemeralTo).toBe(USER);
    expect(seenText(note)).toContain(`horizon=${REFUSED_HORIZON}`);
    await h.slack.clickButton({
      user: USER,
      channel: 'C0OPS',
      messageTs: note.ts,
      actionId: MODAL_ACTION.reopen,
    });
    const reopened = await formOpened(h, USER, 'tsai_modal_test-forecast', view.id);
    expect(initialOf(reopened, 'horizon')).toBe(REFUSED_HORIZON);
    expect(initialOf(reopened, 'baseline_model')).toBe(MODEL);

    const sent = await h.slack.submitView({
      user: USER,
      viewId: reopened.id,
      values: { ...(await values(reopened)), ...typed('horizon', '12h') },
    });
    expect(sent.errors).toBeUndefined();
    const result = await h.slack.waitFor(
      (s) => s.messages('C0OPS').find((m) => !shown.has(m.ts) && seenText(m).includes('horizon=12h')),
      10_000,
      'the form’s result, with its command line',
    );
    expect(seenText(result)).toContain('started an ANOMALYFORECAST flow');
    expect(seenText(result)).toContain(`baseline=${MODEL}`);
    // The result is posted once the service answered.
    const created = service.seen.find(
      (r) => r.method === 'POST' && (r.body as { spec?: { horizon?: string } }).spec?.horizon === '12h',
    );
    expect(created?.body).toMatchObject({
      flowType: 'ANOMALYFORECAST',
      spec: { workspace: W, horizon: '12h', baseline: MODEL },
    });
  });
});

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fieldActionId, MODAL_ACTION } from '../../src/slack/forms/views/ids.js';
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
import { ENTITIES, explainBody } from '../support/added-kinds/explain.js';
import type { Harness } from '../support/harness.js';

/**
 * A new kind of argument (a duration), a new type of output (signals ranked by how much they contributed)
 * and a list of names resolved through a new kind of resource (entities): an operation that needs all
 * three, declared by a test alone (test/support/added-kinds/: the three kind modules, the entry, its list
 * line and its wire schema), driven through the real bot over signed HTTP on every surface: the typed
 * command, help, its form and type-ahead, its end notice, the Home, a digest, a schedule, a mention and a
 * Workflow Builder step. The service side of its flow is a small server of this test's own; everything else
 * goes on to the emulator.
 */

const ACC = SEED.accountId;
const M = SEED.models.temperatureAnomaly;
const T = SEED.signals.temperature;
const P = SEED.signals.pressure;
const E1 = ENTITIES.pump.id;
const E2 = ENTITIES.compressor.id;
const FIRST_FLOW_ID = 1490000000000000200n;
const USER = 'U0ALICE';
const OPS = 'C0OPS';

interface Seen {
  path: string;
  body: { name: string; spec: { entities: string[]; windowSeconds: number; model: string } };
}

/** The service as the operation needs it: ANOMALYEXPLAIN flows, each completed when read back. */
function serviceOf() {
  const seen: Seen[] = [];
  const created = new Map<string, string[]>();
  const answer = ({ method, path, body }: StandRequest): StandAnswer => {
    if (
      method === 'POST' &&
      path === `/api/1.3/accounts/${ACC}/flows` &&
      body?.flowType === 'ANOMALYEXPLAIN'
    ) {
      const checked = explainBody.safeParse(body);
      if (!checked.success) return { status: 400, body: { message: checked.error.message } };
      seen.push({ path, body });
      const id = String(FIRST_FLOW_ID + BigInt(created.size));
      created.set(id, body.spec.entities);
      return { status: 200, body: { id, status: 'CREATED', name: body.name, flowType: 'ANOMALYEXPLAIN' } };
    }
    const flow = new RegExp(`^/api/1\\.3/accounts/${ACC}/flows/(\\d+)$`).exec(path);
    if (method !== 'GET' || !flow || !created.has(flow[1]!)) return undefined;
    const names: Record<string, string> = { [E1]: ENTITIES.pump.name, [E2]: ENTITIES.compressor.name };
    return {
      status: 200,
      body: {
        id: flow[1],
        status: 'COMPLETED',
        flowType: 'ANOMALYEXPLAIN',
        // A kind of entry the client does not know, with two lists: kept whole for the entry to read.
        outputs: [
          {
            type: 'entities.explanation',
            id: String(BigInt(flow[1]!) + 1000n),
            contributors: [
              { signal: T, name: 'temperature', score: 0.82 },
              { signal: P, name: 'pressure', score: 0.11 },
            ],
            entities: created.get(flow[1]!)!.map((id) => ({ id, name: names[id] })),
          },
        ],
      },
    };
  };
  return { answer, seen };
}

/** What a message says, its blocks' texts included (quotes as written). */
const seenText = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? []).replaceAll('\\"', '"')}`;

let h: Harness;
let service: ReturnType<typeof serviceOf>;
let bot: AddedBot;

beforeAll(async () => {
  service = serviceOf();
  bot = await startAddedBot({
    operations: [new URL('../support/added-kinds/explain.ts', import.meta.url).href],
    answer: service.answer,
  });
  h = bot.h;
});

afterAll(() => bot?.close());

/** The flow the service got with this name. */
const sentNamed = (name: string) =>
  h.slack.waitFor(
    () => service.seen.find((s) => s.body.name === name),
    60_000,
    `the flow ${name} at the service`,
  );

/** The end notice of the flow of this name, in its announcement's thread. */
function endNotice(name: string): Promise<LocalMessage> {
  return h.slack.waitFor(
    (s) =>
      s
        .messages(OPS)
        .find(
          (m) =>
            m.threadTs !== undefined &&
            seenText(m).includes('ANOMALYEXPLAIN flow') &&
            seenText(m).includes('completed after') &&
            seenText(m).includes(name),
        ),
    60_000,
    `the end notice of ${name}`,
  );
}

describe('a new kind of argument, of output and of resource, each one declaration', () => {
  it('help shows its usage with its kinds’ shapes, and says which arguments take names', async () => {
    const all = seenText(await h.commandAndReply('help'));
    expect(all).toContain('/tsai explain &lt;model_id&gt; entities=&lt;id,…&gt; window=&lt;duration&gt;');
    const one = seenText(await h.commandAndReply('help explain'));
    expect(one).toContain('How long before each anomaly to look for its causes.');
    expect(one).toMatch(
      /entities=&lt;id,…&gt;`[^\n]*The entities to look at, comma-separated\. Each by its ID or its name\./,
    );
  });

  it('the typed command: the duration read as seconds, entities by ID; its end notice shows the ranked signals', async () => {
    const reply = seenText(
      await h.commandAndReply(`explain ${M} entities=${E1},${E2} window=1h30m range="last week" name=by-ids`),
    );
    expect(reply).toContain('started an ANOMALYEXPLAIN flow');
    expect((await sentNamed('by-ids')).body.spec).toMatchObject({
      model: M,
      entities: [E1, E2],
      windowSeconds: 5400,
    });
    const notice = seenText(await endNotice('by-ids'));
    expect(notice).toContain('Signals that contributed most');
    expect(notice).toContain(`1. temperature \`${T}\` (0.82)`);
    expect(notice).toContain(`2. pressure \`${P}\` (0.11)`);
    expect(notice).toContain(`pump-1 \`${E1}\``);
    // What its kind cannot read is refused before anything is sent, with how to write it.
    const bad = seenText(await h.commandAndReply(`explain ${M} entities=${E1} window=soon range=yesterday`));
    expect(bad).toContain('`soon` is not a look-back window: write it like 6h, 90m or 1h30m');
    expect(h.logs.filter((l) => l.includes('does not declare'))).toEqual([]);
  });

  it('entities are typed by the names the service gave them: bare words, one unknown answered with the closest', async () => {
    const reply = seenText(
      await h.commandAndReply(
        `explain ${M} entities=pump-1,compressor-2 window=6h range=yesterday name=by-names`,
      ),
    );
    expect(reply).toContain(`entity "pump-1" → \`${E1}\``);
    expect((await sentNamed('by-names')).body.spec.entities).toEqual([E1, E2]);
    const unknown = seenText(
      await h.commandAndReply(`explain ${M} entities=pump-7 window=6h range=yesterday name=unknown-one`),
    );
    expect(unknown).toContain('No entity named "pump-7" is known. Closest: "pump-1"');
    expect(service.seen.some((s) => s.body.name === 'unknown-one')).toBe(false);
    // The same key is plain names in EVAL's command: `pump-1` goes to the service as typed, not as the
    // entity the catalog knows by that name.
    await h.clearServiceRequests();
    const evalReply = seenText(
      await h.commandAndReply(
        `eval ${SEED.assessments.temperature} model=${M} datastream=${SEED.datastream} entities=pump-1 range=yesterday`,
      ),
    );
    expect(evalReply).toContain('started an EVAL flow');
    const sent = (await h.askedOfService()).find((r) => r.method === 'POST');
    expect(JSON.stringify(sent?.body)).toContain(`"entities":["pump-1"]`);
  });

  it('its form: the type-ahead offers the entities by name, a bad duration is refused under its field, the submission runs it', async () => {
    const before = h.slack.topView(USER)?.id;
    expect((await h.command('explain')).status).toBe(200);
    const view = await formOpened(h, USER, 'tsai_modal_test-explain', before);
    const ids = (view.view.blocks as { block_id?: string }[]).map((b) => b.block_id);
    expect(ids).toEqual(expect.arrayContaining(['model', 'entities', 'window', 'range_1', 'name']));
    const offered = await h.slack.sendOptionsRequest({
      user: USER,
      viewId: view.id,
      blockId: 'entities',
      actionId: fieldActionId('entities'),
      value: 'pump',
    });
    expect(offered.options?.[0]).toMatchObject({ value: E1, text: { text: `pump-1 · ${E1}` } });
    const model = await h.slack.sendOptionsRequest({
      user: USER,
      viewId: view.id,
      blockId: 'model',
      actionId: fieldActionId('model'),
      value: M,
    });
    const values = (window: string) => ({
      model: { [fieldActionId('model')]: model.options![0]!.value },
      entities: { [fieldActionId('entities')]: [offered.options![0]!.value] },
      window: { [fieldActionId('window')]: window },
      range_1: { [MODAL_ACTION.range]: 'yesterday' },
      name: { [fieldActionId('name')]: 'from-the-form' },
    });
    const refused = await h.slack.submitView({
      user: USER,
      viewId: view.id,
      values: values('two weeks ago'),
    });
    expect(refused.errors).toEqual({ window: expect.stringContaining('is not a look-back window') });
    // A refusal of its entry's own (the window against the range) goes under the field it is about,
    // though its words name no `key=`.
    const longer = await h.slack.submitView({ user: USER, viewId: view.id, values: values('2d') });
    expect(longer.errors).toEqual({ window: expect.stringContaining('as long as the range it explains') });
    const sent = await h.slack.submitView({ user: USER, viewId: view.id, values: values('45m') });
    expect(sent.errors).toBeUndefined();
    expect((await sentNamed('from-the-form')).body.spec).toMatchObject({
      entities: [E1],
      windowSeconds: 2700,
    });
    await endNotice('from-the-form');
  });

  it('the Home and a digest show what it yielded, by its type', async () => {
    await h.slack.openHome({ user: USER });
    const home = await h.slack.waitFor(
      (s) => {
        const v = s.state.home.get(USER);
        return v && JSON.stringify(v.view.blocks).includes('Signals that contributed most') ? v : undefined;
      },
      60_000,
      'the Home with the ranked signals',
    );
    expect(JSON.stringify(home.view.blocks)).toContain(`1. temperature`);
    const posted = new Set(h.slack.messages(OPS).map((m) => m.ts));
    await h.command('digest now');
    const digest = await h.slack.waitFor(
      (s) => s.messages(OPS).find((m) => !posted.has(m.ts) && /Digest for/.test(seenText(m))),
      60_000,
      'the digest',
    );
    expect(seenText(digest)).toContain('Signals that contributed most');
  });

  it('a mention runs it, names and all, answered in the thread', async () => {
    const asked = h.slack.postUserMessage({
      user: USER,
      channel: OPS,
      text: `@tsai explain ${M} entities=compressor-2 window=2h range=yesterday name=by-mention`,
    });
    expect((await sentNamed('by-mention')).body.spec).toMatchObject({ entities: [E2], windowSeconds: 7200 });
    await h.slack.waitFor(
      (s) =>
        s
          .messages(OPS, { threadTs: asked.ts })
          .find((m) => m.ts !== asked.ts && seenText(m).includes('ANOMALYEXPLAIN')),
      60_000,
      'the answer in the thread',
    );
  });

  it('a Workflow Builder step takes it, its duration an input, its ranked signals and entities outputs', async () => {
    const functions = manifestFunctions();
    const step = functions.tsai_explain!;
    expect(step.input_parameters.properties.window).toMatchObject({
      type: 'string',
      title: 'Look-back window',
    });
    expect(Object.keys(step.output_parameters.properties)).toEqual(
      expect.arrayContaining([
        'flow_id',
        'status',
        'contributors',
        'contributors_top',
        'entities',
        'model_id',
      ]),
    );
    h.slack.setFunctions(functions);
    const ex = await h.slack.runFunction({
      callbackId: 'tsai_explain',
      user: USER,
      inputs: {
        model: M,
        entities: `${E1},${E2}`,
        window: '3h',
        range: 'last week',
        name: 'by-step',
        channel: OPS,
      },
    });
    const end = await h.slack.waitFor(
      (s) => {
        const e = s.execution(ex.id);
        return e && e.state !== 'running' ? e : undefined;
      },
      60_000,
      'the step to end',
    );
    expect(end.error).toBeUndefined();
    expect(end.outputs).toMatchObject({
      status: 'COMPLETED',
      contributors: `${T},${P}`,
      contributors_top: T,
      entities: `${E1},${E2}`,
      model_id: M,
    });
    expect((await sentNamed('by-step')).body.spec.windowSeconds).toBe(10_800);
  });

  it('a schedule runs it at its instant, its names read anew at each run', async () => {
    const reply = seenText(
      await h.commandAndReply(
        `schedule "every day at 06:00" explain ${M} entities=pump-1 window=6h range="last 8 hours" name=by-schedule`,
      ),
    );
    expect(reply).toMatch(/every day at 06:00/);
    expect(service.seen.some((s) => s.body.name === 'by-schedule')).toBe(false);
    h.clock.set(Date.UTC(2026, 10, 23, 6, 0, 20));
    expect((await sentNamed('by-schedule')).body.spec).toMatchObject({
      entities: [E1],
      windowSeconds: 21_600,
    });
  });

  it('nothing of it ships: no file of src/ names its flow type or its kinds, and manifest.yml has no step of it', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const p = join(dir, n);
        return statSync(p).isDirectory() ? files(p) : [p];
      });
    const src = files(new URL('../../src', import.meta.url).pathname).map((f) => readFileSync(f, 'utf8'));
    for (const word of ['ANOMALYEXPLAIN', "name: 'duration'", "name: 'ranked'", "name: 'entity'"])
      expect(
        src.filter((text) => text.includes(word)),
        word,
      ).toEqual([]);
    const shipped = parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as {
      functions: Record<string, unknown>;
    };
    expect(shipped.functions).not.toHaveProperty('tsai_explain');
  });
});

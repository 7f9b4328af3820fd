// Every guarantee of the gate against every surface, through the real bot (signed HTTP, the local Slack,
// the emulator), in each configuration the bot runs in: one bot token, and "Add to Slack" with two tenants
// (the stand-in's workspace, and an organisation installed org-wide, each with its service account on an
// emulator of its own). The table is generated from the two lists in core (SURFACES, GUARANTEES) and the
// registry: a surface or a guarantee added without its cases fails the first test, and each refusal is
// driven for every Workflow Builder step's operation, as a typed command, a schedule's run and a step of
// the same person in the same channel, whose answers from the gate must be the same. Each configuration's
// test file calls `gateMatrix`.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GUARANTEES, type GuaranteeId, SURFACES, type SurfaceId } from '../../src/core/gate/index.js';
import { specById as specOf } from '../../src/core/grammar/commands.js';
import { commandArguments } from '../../src/core/grammar/parse.js';
import { tokenize } from '../../src/core/grammar/tokenize.js';
import { TEXT } from '../../src/core/kinds/index.js';
import { entryOfCommand } from '../../src/core/operations/registry/index.js';
import { secretSafe } from '../../src/core/secret-text.js';
import { allSteps, type StepSpec } from '../../src/core/workflows/steps.js';
import { REJECT_REASON_ACTION, REJECT_REASON_BLOCK } from '../../src/slack/approvals/card.js';
import { fieldActionId, MODAL_ACTION, MODAL_CALLBACK } from '../../src/slack/forms/views/ids.js';
import { HOME_ACTION } from '../../src/slack/home/views.js';
import { SETUP_CALLBACK, SETUP_FIELDS } from '../../src/slack/setup/ids.js';
import { SEED } from '../../standins/emulator/index.js';
import type { FunctionDefinition, LocalMessage, OpenView } from '../../standins/localslack/index.js';
import { buttonsOf, textOf } from './approvals-rig.js';
import { eventually } from './emulator.js';
import { type Harness, startHarness } from './harness.js';
import { type InstallsHarness, startInstallsHarness, TENANTS } from './installs-harness.js';
import { registerSecrets } from './logs.js';

const W = SEED.workspaces.pumpStation;
const M3 = SEED.models.pressureCommon;
const OPS = 'C0OPS';
const OFF = 'C0OFF';
const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const CAROL = 'U0CAROL';
const DAVE = 'U0DAVE';
const ERIN = 'U0ERIN';
const FRANK = 'U0FRANK';
const OPERATORS = 'S0OPERATORS';
// Monday 30 November 2026, 05:00 UTC.
const NOW = Date.UTC(2026, 10, 30, 5, 0);
const HOUR = 3_600_000;

const FUNCTIONS = (
  parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as {
    functions: Record<string, FunctionDefinition>;
  }
).functions;

// ---------------------------------------------------------------------------------------------------
// The operations, generated from the registry: every Workflow Builder step, with the command line that
// stands for it (its entry's example, with the step's own leading word) and the inputs that line gives.

interface Op {
  step: StepSpec;
  command: string;
  inputs: Record<string, string>;
  live: boolean;
}

const OPS_OF_STEPS: Op[] = allSteps().map((step) => {
  const entry = entryOfCommand(step.commandId)!;
  const head = ['/tsai', ...entry.command.words].join(' ');
  const own = [head, ...step.words].join(' ');
  // Each example with the step's own leading word; the first that names what the command's first word
  // names (a live start or stop on a schedule must name its model).
  const examples = entry.command.examples.map((e) =>
    step.words.length ? e.replace(new RegExp(`^${head} \\S+`), own) : e,
  );
  const positional = specOf(entry.command.id).positional;
  // Its arguments by key, read without the leading word (which the grammar reads by position).
  const argsOf = (e: string) => commandArguments(head + e.slice(own.length))?.given;
  const example = examples.find((e) => !positional || argsOf(e)?.[positional] !== undefined) ?? examples[0]!;
  const given = argsOf(example)!;
  // What the command takes by position (an ID, a quoted name) goes to the first inputs not given.
  const read = tokenize(example.slice(own.length));
  const givenValues = new Set(Object.values(given));
  // `model move <model> to <workspace>` reads its `to` by position too.
  const byPosition = read.ok
    ? read.tokens
        .filter((t) => t.kind === 'positional' && !givenValues.has(t.value) && t.value !== 'to')
        .map((t) => t.value)
    : [];
  const inputs: Record<string, string> = {};
  for (const input of step.inputs)
    if (input.argKey && given[input.argKey]) inputs[input.name] = given[input.argKey]!;
    else if (input.argKey && byPosition.length) inputs[input.name] = byPosition.shift()!;
  return { step, command: example.replace(/^\/tsai\s+/, ''), inputs, live: step.waits === 'approval' };
});

/** How a gate's sentence reads once shown: mrkdwn entities decoded, code marks and spacing gone. */
const plain = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .trim();

// ---------------------------------------------------------------------------------------------------
// The stacks: the bot as configured for most guarantees, and one requiring people's own tokens.

/** The configurations the bot runs in: one bot token, or "Add to Slack" with two tenants. */
export type MatrixConfig = 'single-token' | 'add-to-slack';

let config: MatrixConfig;
let h: Harness;
let r: Harness;
/**
 * Someone of another team, in the channel `h`'s team shares with it: with one bot token a Slack Connect
 * team the bot serves with the same account (Alice and Carol as that team's people); with "Add to Slack"
 * the org-wide tenant, through its North workspace, with a service of its own.
 */
let other: { workspace: string; tenant: string; typist: string; clicker: string };
const TOKEN_KEY = randomBytes(32).toString('base64');

const USERS = [ALICE, BOB, CAROL, DAVE, ERIN, FRANK].map((id) => ({
  id,
  name: id.slice(3).toLowerCase(),
  tz: 'UTC',
  // Dave is an operator and an approver whose account is deactivated.
  ...(id === DAVE ? { deleted: true } : {}),
}));
const CHANNELS = [
  { id: OPS, name: 'plant-ops' },
  { id: OFF, name: 'off-limits' },
];

async function startStacks(c: MatrixConfig): Promise<void> {
  config = c;
  registerSecrets(TOKEN_KEY);
  const common = {
    now: new Date(NOW),
    flowDelays: { runningAfterMs: 100, completedAfterMs: 300 },
    users: USERS,
    channels: CHANNELS,
    // Carol is not an operator (she approves for Pump station A); Frank stops being one.
    usergroups: [{ id: OPERATORS, handle: 'operators', users: [ALICE, BOB, DAVE, ERIN, FRANK] }],
    functions: FUNCTIONS,
  };
  const env = {
    TSAI_TRACK_FIRST_POLL: '100ms',
    TSAI_TRACK_MAX_INTERVAL: '300ms',
    TSAI_APPROVERS: `${BOB},${CAROL},${DAVE}`,
    TSAI_WORKSPACE_APPROVERS: `${W}=${CAROL}`,
    // With "Add to Slack" operators are people (a group belongs to one workspace): the same people.
    TSAI_OPERATORS: c === 'single-token' ? OPERATORS : [ALICE, BOB, DAVE, ERIN, FRANK].join(','),
    TSAI_ALLOWED_CHANNELS: OPS,
    TSAI_SCHEDULES_PER_PERSON: '1000',
    TSAI_SCHEDULES_PER_CHANNEL: '1000',
  };
  const start = c === 'single-token' ? startHarness : startInstallsHarness;
  [h, r] = await Promise.all([
    start({ ...common, env }),
    start({
      ...common,
      // Without allowed channels, so that a direct message meets the other guarantees first.
      env: {
        ...env,
        TSAI_ALLOWED_CHANNELS: '',
        TSAI_REQUIRE_USER_TOKEN: 'true',
        TSAI_SECRET_KEY: TOKEN_KEY,
      },
    }),
  ]);
  // Both workspaces have Slack's assistant pane, as the manifest declares it.
  const view = (
    parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as {
      features: { assistant_view: { assistant_description: string } };
    }
  ).features.assistant_view;
  for (const x of [h, r])
    x.slack.configureApp({ assistantView: { description: view.assistant_description } });
  other =
    c === 'single-token'
      ? { workspace: 'T0SHARED', tenant: 'T0SHARED', typist: ALICE, clicker: CAROL }
      : {
          workspace: TENANTS.org.workspace,
          tenant: TENANTS.org.tenant,
          typist: TENANTS.org.installer,
          clicker: TENANTS.org.installer,
        };
}

// ---------------------------------------------------------------------------------------------------
// Driving each surface.

const botUser = (x: Harness) => x.slack.botUserId;

/**
 * A typed command and the reply its author sees: what came back through the command's own response_url,
 * or the flow it started, announced in the channel quoting it as the bot quotes a command (masked). Known
 * by what it answers, not by coming first: what the bot says meanwhile (a schedule's run, an earlier
 * command's flow) is no reply to this one.
 */
async function typed(x: Harness, user: string, channel: string, text: string, teamId?: string) {
  const before = new Set(x.slack.messages(channel, { user }).map((m) => m.ts));
  const d = await x.slack.sendCommand({ user, channel, text, ...(teamId ? { teamId } : {}) });
  expect(d.status).toBe(200);
  const announced = `Run by <@${user}>: ${plain(secretSafe(`/tsai ${text}`))}`;
  const reply = await x.slack.waitFor(
    () =>
      x.slack
        .messages(channel, { user })
        .find(
          (m) =>
            !before.has(m.ts) &&
            m.user === botUser(x) &&
            (m.answers === d.commandTs || (m.via === 'api' && plain(textOf(m)).includes(announced))),
        ),
    60_000,
    `a reply to /tsai ${text}`,
  );
  return textOf(reply);
}

/**
 * `@tsai <text>` written by `user` at the top of `channel`, and the bot's answer: in the thread it starts,
 * or, for what only they see, in the channel where they look.
 */
async function mentioned(x: Harness, user: string, channel: string, text: string) {
  const m = x.slack.postUserMessage({ user, channel, text: `@tsai ${text}` });
  const answer = await x.slack.waitFor(
    () =>
      x.slack
        .messages(channel, { user, threadTs: m.ts })
        .find((a) => a.ts !== m.ts && a.user === botUser(x)) ??
      x.slack
        .messages(channel, { user })
        .find((a) => a.ts > m.ts && a.ephemeralTo === user && a.user === botUser(x)),
    60_000,
    `the answer to @tsai ${text}`,
  );
  return textOf(answer);
}

/** `text` written by `user` in the bot's Messages tab, and the bot's answer there. */
async function directly(x: Harness, user: string, text: string) {
  const dm = `D${user}`;
  const m = x.slack.postUserMessage({ user, channel: dm, text });
  const answer = await x.slack.waitFor(
    () => x.slack.messages(dm, { user }).find((a) => a.ts > m.ts && a.user === botUser(x)),
    60_000,
    `the answer to ${text} in the Messages tab`,
  );
  return textOf(answer);
}

/** Each person's assistant pane thread, opened viewing a channel, by harness, person and channel. */
const panes = new Map<string, string>();

/** The pane thread of `user` viewing `channel`, opened (and greeted) on first use. */
async function paneThread(x: Harness, user: string, channel: string): Promise<string> {
  const key = `${x.slack.url} ${user} ${channel}`;
  const known = panes.get(key);
  if (known) return known;
  const { threadTs } = await x.slack.openAssistant({ user, channel });
  await x.slack.waitFor(
    () => x.slack.messages(`D${user}`).find((m) => m.ts === threadTs)?.assistantThread?.prompts,
    60_000,
    `${user}'s pane greeted`,
  );
  panes.set(key, threadTs);
  return threadTs;
}

/** `text` written by `user` in their assistant pane while viewing `channel`, and the bot's answer there. */
async function inPane(x: Harness, user: string, channel: string, text: string) {
  const dm = `D${user}`;
  const threadTs = await paneThread(x, user, channel);
  const m = x.slack.postUserMessage({ user, channel: dm, text, threadTs });
  const answer = await x.slack.waitFor(
    () => x.slack.messages(dm, { user, threadTs }).find((a) => a.ts > m.ts && a.user === botUser(x)),
    60_000,
    `the answer to ${text} in the assistant pane`,
  );
  return textOf(answer);
}

/** A workflow step run by `user`, and how it ended. */
async function stepRun(x: Harness, user: string, op: Op, inputs: Record<string, string>) {
  const ex = await x.slack.runFunction({ callbackId: op.step.callbackId, user, inputs });
  return x.slack.waitFor(
    (s) => {
      const e = s.execution(ex.id);
      return e && e.state !== 'running' ? e : undefined;
    },
    60_000,
    `the step ${op.step.callbackId}`,
  );
}

/**
 * A schedule of `command` kept as the bot keeps one (as if made when the person could), due at `at`; a
 * live start or stop approved then by Bob.
 */
async function keptSchedule(
  x: Harness,
  o: { owner: string; channel: string; command: string; at: number; live: boolean; teamId?: string },
) {
  const hour = new Date(o.at).getUTCHours();
  const s = await x.store.createSchedule({
    teamId: o.teamId ?? x.slack.teamId,
    channelId: o.channel,
    ownerId: o.owner,
    name: `matrix ${o.command.slice(0, 40)} ${randomBytes(3).toString('hex')}`,
    kind: 'command',
    command: o.command,
    whenText: `every day at ${hour}:00`,
    rule: { pattern: `0 ${hour} * * *`, zone: 'UTC', at: { hour, minute: 0 } },
    timeZone: 'UTC',
    status: o.live ? 'awaiting-approval' : 'active',
    createdAt: o.at - HOUR,
    nextRunAt: o.live ? null : o.at,
  });
  if (!o.live) return s;
  return (await x.store.setScheduleStatus(s.id, {
    status: 'active',
    from: ['awaiting-approval'],
    by: BOB,
    at: o.at - HOUR,
    nextRunAt: o.at,
  }))!;
}

/** The run of a schedule at `at`, once it is recorded. */
const runAt = (x: Harness, scheduleId: string, at: number) =>
  eventually(
    async () =>
      (await x.store.listScheduleRuns({ scheduleIds: [scheduleId] })).find(
        (run) => run.plannedAt === at && run.state !== 'claimed',
      ),
    60_000,
  );

/** What each of the three surfaces was answered for one operation. */
interface Answers {
  command: string;
  mention: string;
  schedule: string;
  step: string;
}

/**
 * The same operation by the same person in the same channel, typed, run by a schedule at `at`, and run as
 * a workflow step, for every step's operation `ops` selects: what each was answered.
 */
async function threeWays(
  x: Harness,
  o: { user: string; channel: string; at: number; ops: (op: Op) => boolean },
): Promise<Map<string, Answers>> {
  const ops = OPS_OF_STEPS.filter(o.ops);
  const kept = new Map<string, string>();
  for (const op of ops)
    kept.set(
      op.step.callbackId,
      (
        await keptSchedule(x, {
          owner: o.user,
          channel: o.channel,
          command: op.command,
          at: o.at,
          live: op.live,
        })
      ).id,
    );
  // First what answers at once, then every schedule's run, all due together.
  const asked = new Map<string, Omit<Answers, 'schedule'>>();
  for (const op of ops) {
    const command = await typed(x, o.user, o.channel, op.command);
    const mention = await mentioned(x, o.user, o.channel, op.command);
    const step = await stepRun(x, o.user, op, { ...op.inputs, channel: o.channel });
    asked.set(op.step.callbackId, { command, mention, step: step.error ?? `(${step.state})` });
  }
  x.clock.set(o.at + 5_000);
  const out = new Map<string, Answers>();
  for (const op of ops) {
    const run = await runAt(x, kept.get(op.step.callbackId)!, o.at);
    out.set(op.step.callbackId, {
      ...asked.get(op.step.callbackId)!,
      schedule: run.detail ?? `(${run.state})`,
    });
  }
  return out;
}

/** Every answer is the gate's own sentence, as each surface shows it. */
function sameRefusal(answers: Map<string, Answers>, surface: keyof Answers, pattern: RegExp) {
  expect(answers.size).toBeGreaterThan(0);
  for (const [callbackId, a] of answers) {
    // The schedule's run keeps the gate's sentence itself; the reply and the step's error show it.
    expect(a.schedule, callbackId).toMatch(pattern);
    expect(plain(a[surface]), `${callbackId} (${surface})`).toContain(plain(a.schedule));
  }
}

/** Memoised scenarios: several cells of the table read the same run. */
const once = <T>(f: () => Promise<T>) => {
  let p: Promise<T> | undefined;
  return () => (p ??= f());
};

// ---------------------------------------------------------------------------------------------------
// The scenarios: one per guarantee, each driving the surfaces it concerns.

const refusals = {
  // Carol is no operator: every operation that changes something is refused alike.
  operator: once(() =>
    threeWays(h, {
      user: CAROL,
      channel: OPS,
      at: NOW + 1 * HOUR,
      ops: (op) => entryOfCommand(op.step.commandId)!.command.mutating,
    }),
  ),
  // The bot does not act in #off-limits, for anything.
  channel: once(() => threeWays(h, { user: ALICE, channel: OFF, at: NOW + 2 * HOUR, ops: () => true })),
  // Dave's account is deactivated: nothing acts for him.
  standing: once(() => threeWays(h, { user: DAVE, channel: OPS, at: NOW + 3 * HOUR, ops: () => true })),
  // Erin has not connected her own token where the bot requires one. A typed or step live start files a
  // request, which acts with nobody's identity (the approver's creates the flow), so it is left out.
  identity: once(() => threeWays(r, { user: ERIN, channel: OPS, at: NOW + 1 * HOUR, ops: (op) => !op.live })),
};

/**
 * Every step's operation typed in the Messages tab, by each person the refusals concern: a direct message
 * is a channel like any other, outside the allowed channels when they are set (`h`), else (`r`) met by the
 * same refusals as a typed command there.
 */
const inMessagesTab = once(async () => {
  const answers = async (x: Harness, user: string, ops: (op: Op) => boolean) => {
    const out = new Map<string, string>();
    for (const op of OPS_OF_STEPS.filter(ops))
      out.set(op.step.callbackId, await directly(x, user, op.command));
    return out;
  };
  return {
    channel: await answers(h, ALICE, () => true),
    operator: await answers(r, CAROL, (op) => entryOfCommand(op.step.commandId)!.command.mutating),
    standing: await answers(r, DAVE, () => true),
    identity: await answers(r, ERIN, (op) => !op.live),
  };
});

/**
 * Every step's operation typed in the assistant pane, by each person the refusals concern: the channel
 * they view is the place of their request, so Alice viewing #off-limits meets the allowed channels (`h`),
 * and the others, viewing #plant-ops where the bot acts everywhere (`r`), the same refusals as there.
 */
const inAssistantPane = once(async () => {
  const answers = async (x: Harness, user: string, channel: string, ops: (op: Op) => boolean) => {
    const out = new Map<string, string>();
    for (const op of OPS_OF_STEPS.filter(ops))
      out.set(op.step.callbackId, await inPane(x, user, channel, op.command));
    return out;
  };
  return {
    channel: await answers(h, ALICE, OFF, () => true),
    operator: await answers(r, CAROL, OPS, (op) => entryOfCommand(op.step.commandId)!.command.mutating),
    standing: await answers(r, DAVE, OPS, () => true),
    identity: await answers(r, ERIN, OPS, (op) => !op.live),
  };
});

type Told = Record<'channel' | 'operator' | 'standing' | 'identity', Map<string, string>>;

/** The same refusal as the typed command's, from a surface that answers in a conversation of its own. */
const sameIn =
  (told: () => Promise<Told>) => (g: 'channel' | 'operator' | 'standing' | 'identity', pattern: RegExp) => ({
    drive: async () => {
      const said = (await told())[g];
      expect(said.size).toBeGreaterThan(0);
      for (const [callbackId, answer] of said) expect(plain(answer), callbackId).toMatch(pattern);
      // Word for word the typed command's, where the two met the same refusal.
      const typedOnes = await refusals[g]();
      for (const [callbackId, a] of typedOnes)
        if (said.has(callbackId) && pattern.test(a.schedule))
          expect(plain(said.get(callbackId)!), callbackId).toContain(plain(a.schedule));
    },
  });

/** The same refusal as the typed command's, from the Messages tab. */
const sameInMessagesTab = sameIn(inMessagesTab);
/** The same refusal as the typed command's, from the assistant pane. */
const sameInPane = sameIn(inAssistantPane);

/** What a secret typed into each free-text argument of each operation came to, per surface. */
const masking = once(async () => {
  const secret = (tag: string) => `tsai-pat-${tag}${randomBytes(12).toString('hex')}`;
  const typedIn = OPS_OF_STEPS.filter((op) => !op.live).flatMap((op) => {
    const given = commandArguments(op.command)!.given;
    return entryOfCommand(op.step.commandId)!
      .args.filter((a) => a.freeText && a.kind === TEXT && !a.required && given[a.key] === undefined)
      .slice(0, 1)
      .map((a) => ({ op, key: a.key, input: op.step.inputs.find((i) => i.argKey === a.key)?.name }));
  });
  const tokens: string[] = [];
  const sent = async (run: () => Promise<unknown>) => {
    await h.clearServiceRequests();
    await run();
    return JSON.stringify(await h.askedOfService());
  };
  const line = (op: Op, key: string, value: string) => `${op.command} ${key}=${value}`;
  const results: { surface: SurfaceId; body: string }[] = [];
  for (const { op, key, input } of typedIn) {
    const t = [secret('c'), secret('s'), secret('w')];
    tokens.push(...t);
    registerSecrets(...t);
    let reply = '';
    results.push({
      surface: 'command',
      body: await sent(async () => {
        reply = await typed(h, ALICE, OPS, line(op, key, t[0]!));
      }),
    });
    expect(reply, line(op, key, t[0]!)).toMatch(/started an? /);
    const tm = secret('m');
    tokens.push(tm);
    registerSecrets(tm);
    results.push({ surface: 'mention', body: await sent(() => mentioned(h, ALICE, OPS, line(op, key, tm))) });
    const tp = secret('p');
    tokens.push(tp);
    registerSecrets(tp);
    results.push({ surface: 'assistant', body: await sent(() => inPane(h, ALICE, OPS, line(op, key, tp))) });
    if (input)
      results.push({
        surface: 'workflow-step',
        body: await sent(() => stepRun(h, ALICE, op, { ...op.inputs, [input]: t[2]!, channel: OPS })),
      });
    // Made through the real command, so that what is kept is what the bot kept.
    await typed(h, ALICE, OPS, `schedule "every day at 12:00" ${line(op, key, t[1]!)}`);
  }
  const schedules = (await h.store.listSchedules({ channelId: OPS })).filter(
    (s) => s.whenText === 'every day at 12:00',
  );
  results.push({
    surface: 'schedule',
    body: await sent(async () => {
      h.clock.set(NOW + 7 * HOUR + 5_000);
      const runs = [];
      for (const s of schedules) runs.push(await runAt(h, s.id, NOW + 7 * HOUR));
      // A run is recorded before its flow is announced: waited for, so that no announcement comes
      // after and is taken for the reply to a later command.
      for (const run of runs)
        if (run.flowId)
          await h.slack.waitFor(
            () => h.slack.messages(OPS).some((m) => textOf(m).includes(run.flowId!)),
            60_000,
            `the announcement of flow ${run.flowId}`,
          );
    }),
  });
  return { tokens, results, kept: schedules };
});

/** M3 is in Pump station A, whose approvers are Carol's; Bob approves for the bot only. */
const approval = once(async () => {
  await typed(h, ALICE, OPS, `workspace show ${W}`);
  await typed(h, ALICE, OPS, `model common ${SEED.assessments.pressure}`);
  await eventually(async () =>
    (await h.store.getCatalogEntry(h.slack.teamId, 'model', M3))?.workspaceId === W ? true : undefined,
  );
  const live = OPS_OF_STEPS.find((op) => op.step.callbackId === 'tsai_live_start')!;
  const before = new Set((await h.store.listApprovals()).map((a) => a.id));
  const reply = await typed(h, ALICE, OPS, `live start ${M3} reason="matrix typed"`);
  const step = await h.slack.runFunction({
    callbackId: live.step.callbackId,
    user: ALICE,
    inputs: { model: M3, reason: 'matrix step', channel: OPS },
  });
  const requests = await eventually(async () => {
    const fresh = (await h.store.listApprovals()).filter((a) => !before.has(a.id));
    return fresh.length === 2 ? fresh : undefined;
  });
  const cards = requests.map((q) =>
    h.slack.waitFor(
      () =>
        h.slack
          .messages(OPS)
          .find((m) => buttonsOf(m).includes('approval_approve') && textOf(m).includes(q.id)),
      60_000,
      `the card of ${q.id}`,
    ),
  );
  const refusedTo = async (user: string, pattern: RegExp, after: Set<string>) =>
    textOf(
      await h.slack.waitFor(
        () => h.slack.messages(OPS, { user }).find((m) => !after.has(m.ts) && pattern.test(textOf(m))),
        60_000,
        `${user} told ${pattern}`,
      ),
    );
  // The button: Bob on the typed request's card.
  const seenBefore = new Set(h.slack.messages(OPS, { user: BOB }).map((m) => m.ts));
  const typedCard = await cards[requests.findIndex((q) => q.reason === 'matrix typed')]!;
  await h.slack.clickButton({
    user: BOB,
    channel: OPS,
    messageTs: typedCard.ts,
    actionId: 'approval_approve',
  });
  const button = await refusedTo(BOB, /not one of the approvers/, seenBefore);
  // The Home tab: Bob on the step's request, from his own Home (it shows no button for a request he
  // does not decide; the click is signed as Slack would sign one).
  const stepRequest = requests.find((q) => q.reason === 'matrix step')!;
  await h.slack.openHome({ user: BOB });
  const home = await h.slack.waitFor(() => h.slack.state.home.get(BOB), 60_000, "Bob's Home");
  const dmBefore = new Set(h.slack.messages(`D${BOB}`).map((m) => m.ts));
  const clicked = await h.slack.signedPost(
    '/slack/events',
    new URLSearchParams({
      payload: JSON.stringify({
        type: 'block_actions',
        user: { id: BOB, username: 'bob', team_id: h.slack.teamId },
        team: { id: h.slack.teamId },
        api_app_id: h.slack.appId,
        trigger_id: h.slack.state.issueTrigger(BOB),
        container: { type: 'view', view_id: home.id },
        view: { id: home.id, type: 'home', hash: home.hash },
        actions: [
          {
            type: 'button',
            action_id: HOME_ACTION.approve,
            block_id: `home_decide_${stepRequest.id}`,
            value: stepRequest.id,
          },
        ],
      }),
    }).toString(),
  );
  expect(clicked.status).toBe(200);
  const homeTold = textOf(
    await h.slack.waitFor(
      () =>
        h.slack
          .messages(`D${BOB}`)
          .find((m) => !dmBefore.has(m.ts) && /not one of the approvers/.test(textOf(m))),
      60_000,
      'Bob told by direct message',
    ),
  );
  // The schedule: made by Alice (so it keeps the rule of M3), decided by Bob on its card.
  await typed(h, ALICE, OPS, `schedule "every day at 13:00" name="matrix live" live start ${M3}`);
  const s = (await h.store.listSchedules({ channelId: OPS })).find((x) => x.name === 'matrix live')!;
  const card = await h.slack.waitFor(
    () =>
      h.slack
        .messages(OPS)
        .find((m) => buttonsOf(m).includes('schedule_approve') && textOf(m).includes(s.id)),
    60_000,
    'the schedule card',
  );
  const beforeSchedule = new Set(h.slack.messages(OPS, { user: BOB }).map((m) => m.ts));
  await h.slack.clickButton({
    user: BOB,
    channel: OPS,
    messageTs: card.ts,
    actionId: 'schedule_approve',
    value: s.id,
  });
  const schedule = await refusedTo(BOB, /not one of the approvers/, beforeSchedule);
  const sent = (await h.askedOfService()).filter((q) => /LIVEMODEL/.test(JSON.stringify(q.body ?? '')));
  return {
    reply,
    button,
    homeTold,
    schedule,
    requests,
    scheduleId: s.id,
    cards: await Promise.all(cards),
    stepExecution: step.id,
    sent,
    status: (await h.store.getSchedule(s.id))?.status,
  };
});

/**
 * M3 goes live (Carol approves the typed request and its flow completes); then a live start of it, typed,
 * as a step, by the schedule Carol approved, and by approving the step's request, is refused alike.
 */
const prechecks = once(async () => {
  const a = await approval();
  const typedRequest = a.requests.find((q) => q.reason === 'matrix typed')!;
  const typedCard = a.cards[a.requests.indexOf(typedRequest)]!;
  await h.slack.clickButton({
    user: CAROL,
    channel: OPS,
    messageTs: typedCard.ts,
    actionId: 'approval_approve',
  });
  await eventually(async () => {
    const q = await h.store.getApproval(typedRequest.id);
    const flow = q?.flowId ? await h.store.getTrackedFlow({ teamId: q.teamId, flowId: q.flowId }) : null;
    return flow?.endReason === 'ended' && flow.status === 'COMPLETED' ? true : undefined;
  }, 60_000);
  const card = h.slack
    .messages(OPS)
    .find((m) => buttonsOf(m).includes('schedule_approve') && textOf(m).includes(a.scheduleId))!;
  await h.slack.clickButton({
    user: CAROL,
    channel: OPS,
    messageTs: card.ts,
    actionId: 'schedule_approve',
    value: a.scheduleId,
  });
  await eventually(async () =>
    (await h.store.getSchedule(a.scheduleId))?.status === 'active' ? true : undefined,
  );
  const command = await typed(h, ALICE, OPS, `live start ${M3}`);
  const live = OPS_OF_STEPS.find((op) => op.step.callbackId === 'tsai_live_start')!;
  const step = await stepRun(h, ALICE, live, { model: M3, channel: OPS });
  // The step's request, filed before M3 went live, approved by Carol now: its flow meets the pre-check.
  const stepRequest = a.requests.find((q) => q.reason === 'matrix step')!;
  const stepCard = a.cards[a.requests.indexOf(stepRequest)]!;
  await h.slack.clickButton({
    user: CAROL,
    channel: OPS,
    messageTs: stepCard.ts,
    actionId: 'approval_approve',
  });
  const button = await eventually(async () => {
    const q = await h.store.getApproval(stepRequest.id);
    return q && q.status !== 'pending' && q.status !== 'executing' ? q : undefined;
  }, 60_000);
  const at = (await h.store.getSchedule(a.scheduleId))!.nextRunAt!;
  h.clock.set(at + 5_000);
  const run = await runAt(h, a.scheduleId, at);
  const liveFlows = (await h.serviceRequests()).filter(
    (q) => q.method === 'POST' && /STARTLIVEMODEL/.test(JSON.stringify(q.body ?? '')),
  );
  return {
    command,
    step: step.error ?? '',
    schedule: run.detail ?? '',
    button: button.error ?? '',
    liveFlows,
  };
});

const ALREADY_LIVE = new RegExp(
  `Model ${M3} is already live \\(flow \\d+, which the bot followed, started it\\)`,
);

/** A followed flow of this team, asked for from the other team of a shared channel. */
const team = once(async () => {
  await typed(
    h,
    ALICE,
    OPS,
    `learn workspace=${W} signals=${SEED.signals.temperature} range="2026-11-20 08:00 to 2026-11-20 20:00"`,
  );
  const flow = await eventually(
    async () => (await h.store.listTrackedFlows({ channelId: OPS, limit: 1 }))[0],
  );
  const command = await typed(h, other.typist, OPS, `flow ${flow.flowId}`, other.workspace);
  const s = await keptSchedule(h, {
    owner: other.typist,
    channel: OPS,
    command: `flow ${flow.flowId}`,
    at: NOW + 9 * HOUR,
    live: false,
    teamId: other.tenant,
  });
  const before = new Set(h.slack.messages(OPS, { user: other.typist }).map((m) => m.ts));
  h.clock.set(NOW + 9 * HOUR + 5_000);
  const run = await runAt(h, s.id, NOW + 9 * HOUR);
  const shown = await h.slack.waitFor(
    () =>
      h.slack
        .messages(OPS, { user: other.typist })
        .find((m) => !before.has(m.ts) && textOf(m).includes(flow.flowId)),
    60_000,
    'the run shown to its owner',
  );
  // A decision from the other team, on a card and on the Home tab alike.
  const { request: q, card } = await filed(h, FRANK, '1070000000000000801', 'matrix team');
  const seen = new Set(h.slack.messages(OPS, { user: other.clicker }).map((m) => m.ts));
  await h.slack.clickButton({
    user: other.clicker,
    channel: OPS,
    messageTs: card.ts,
    actionId: 'approval_approve',
    teamId: other.workspace,
  });
  const button = textOf(
    await h.slack.waitFor(
      () =>
        h.slack
          .messages(OPS, { user: other.clicker })
          .find((m) => !seen.has(m.ts) && /not known/.test(textOf(m))),
      60_000,
      'the other team told the request is not known there',
    ),
  );
  return { command, schedule: textOf(shown), run, button, request: await h.store.getApproval(q.id) };
});

/**
 * The learn form, opened from `/tsai learn workspace=…` as `user` in `channel` and sent with a signal, a
 * range and `name`: what the person sees after it (or why it did not open).
 */
async function form(x: Harness, user: string, channel: string, name: string) {
  const before = x.slack.topView(user)?.id;
  const seenBefore = new Set(x.slack.messages(channel, { user }).map((m) => m.ts));
  const said = () =>
    x.slack.messages(channel, { user }).find((m) => !seenBefore.has(m.ts) && m.user === botUser(x));
  expect((await x.slack.sendCommand({ user, channel, text: `learn workspace=${W}` })).status).toBe(200);
  const opened = (await x.slack.waitFor(
    () => {
      const v = x.slack.topView(user);
      if (v && v.id !== before && v.view.callback_id === MODAL_CALLBACK.learn) return v;
      const refused = said();
      return refused ? { refused: textOf(refused) } : undefined;
    },
    60_000,
    'the form, or why not',
  )) as OpenView | { refused: string };
  if ('refused' in opened) return opened.refused;
  const signal = await x.slack.sendOptionsRequest({
    user,
    viewId: opened.id,
    blockId: 'signals',
    actionId: fieldActionId('signals'),
    value: SEED.signals.temperature,
  });
  await x.slack.submitView({
    user,
    viewId: opened.id,
    values: {
      signals: { [fieldActionId('signals')]: [signal.options![0]!.value] },
      range_1: { [MODAL_ACTION.range]: '2026-11-20 08:00 to 2026-11-20 20:00' },
      name: { [fieldActionId('name')]: name },
    },
  });
  return textOf(await x.slack.waitFor(said, 60_000, 'what came of the form'));
}

/** `live start <model>` filed by `user` with `reason`, and its card, whose Approve and Reject are there. */
async function filed(x: Harness, user: string, model: string, reason: string) {
  await typed(x, user, OPS, `live start ${model} reason="${reason}"`);
  const request = await eventually(async () =>
    (await x.store.listApprovals()).find((q) => q.reason === reason),
  );
  const card = await x.slack.waitFor(
    () =>
      x.slack
        .messages(OPS)
        .find((m) => buttonsOf(m).includes('approval_approve') && textOf(m).includes(request.id)),
    60_000,
    `the card of ${request.id}`,
  );
  return { request, card };
}

/** `user` clicks `action` on a card; what the bot then tells them there (when it tells them something). */
async function click(
  x: Harness,
  user: string,
  card: LocalMessage,
  action: 'approval_approve' | 'approval_reject',
) {
  const seen = new Set(x.slack.messages(OPS, { user }).map((m) => m.ts));
  await x.slack.clickButton({ user, channel: OPS, messageTs: card.ts, actionId: action });
  return () =>
    x.slack.waitFor(
      () => x.slack.messages(OPS, { user }).find((m) => !seen.has(m.ts) && m.user === botUser(x)),
      60_000,
      `${user} told`,
    );
}

/**
 * `/tsai setup` and its form ("Add to Slack"): who may open it, and who may send it, as Slack says at that
 * moment. The stand-in's workspace is connected by its admin Adam and was installed by Ivan, no admin; the
 * organisation was installed by Nina and connected by its admin Olga; Nora is an admin of its North
 * workspace only.
 */
const setup = once(async () => {
  const x = h as InstallsHarness;
  const { local, org } = TENANTS;
  const people = x.slack.state.users;
  const said = async (user: string, channel: string, teamId?: string) =>
    (await x.openSetup(user, channel, teamId)).said ?? '(the form opened)';
  const opened = async (user: string, channel: string) => {
    const o = await x.openSetup(user, channel);
    if (!o.viewId) throw new Error(`the setup form did not open for ${user}: ${o.said}`);
    return o.viewId;
  };
  const accounts = async () => ({
    local: (await x.store.getTenantSecret(local.tenant, 'service-account'))?.facts,
    org: (await x.store.getTenantSecret(org.tenant, 'service-account'))?.facts,
  });
  const before = await accounts();
  const open = {
    standing: await said(DAVE, OPS),
    // Nina, of the organisation, in the channel the two share, through the stand-in workspace's install.
    team: await said(org.installer, OPS, local.tenant),
    admin: await said(CAROL, OPS),
    // Ivan installed the stand-in's workspace, which is connected now: installing granted him nothing more.
    installer: await said(local.installer, OPS),
    // Nora is an admin of the North workspace, not of the organisation the app is installed for.
    orgWorkspaceAdmin: await said(org.workspaceAdmin, org.channel),
  };
  // Sent: each form was opened by an admin who, before sending it, lost what made them one.
  const [deactivated, demoted] = local.spareAdmins;
  const standingForm = await opened(deactivated, OPS);
  people.get(deactivated)!.deleted = true;
  const standingSent = await x.sendSetup(deactivated, standingForm, x.other.emulator);
  const adminForm = await opened(demoted, OPS);
  people.get(demoted)!.isAdmin = false;
  const adminSent = await x.sendSetup(demoted, adminForm, x.other.emulator);
  const orgForm = await opened(org.orgAdmin, org.channel);
  people.get(org.orgAdmin)!.orgAdmin = false;
  const orgSent = await x.sendSetup(org.orgAdmin, orgForm, x.emulator);
  people.get(org.orgAdmin)!.orgAdmin = true;
  // A form of the stand-in's workspace sent by Nina of the organisation (signed as Slack signs it).
  const forged = await x.slack.signedPost(
    '/slack/events',
    new URLSearchParams({
      payload: JSON.stringify({
        type: 'view_submission',
        user: { id: org.installer, username: 'nina', team_id: org.workspace },
        team: { id: local.tenant, domain: 'local' },
        api_app_id: x.slack.appId,
        trigger_id: x.slack.state.issueTrigger(org.installer),
        view: {
          id: 'V0FORGED',
          type: 'modal',
          callback_id: SETUP_CALLBACK,
          app_installed_team_id: local.tenant,
          team_id: local.tenant,
          private_metadata: '',
          hash: 'forged',
          state: {
            values: {
              [SETUP_FIELDS.baseUrl.block]: {
                [SETUP_FIELDS.baseUrl.input]: { type: 'plain_text_input', value: x.other.emulator.url },
              },
              [SETUP_FIELDS.accountId.block]: {
                [SETUP_FIELDS.accountId.input]: {
                  type: 'plain_text_input',
                  value: x.other.emulator.accountId,
                },
              },
              [SETUP_FIELDS.token.block]: {
                [SETUP_FIELDS.token.input]: { type: 'plain_text_input', value: x.other.emulator.token },
              },
            },
          },
        },
        response_urls: [],
      }),
    }).toString(),
  );
  const errorsOf = (d: { errors?: Record<string, string>; body?: string }) =>
    JSON.stringify(d.errors ?? (JSON.parse(d.body || '{}') as { errors?: unknown }).errors ?? {});
  return {
    open,
    sent: {
      standing: errorsOf(standingSent),
      admin: errorsOf(adminSent),
      org: errorsOf(orgSent),
      team: errorsOf(forged),
    },
    before,
    after: await accounts(),
  };
});

/** `/tsai setup` with one bot token: nothing to set up, and no form. */
const nothingToSetUp = once(async () => {
  const before = h.slack.topView(ALICE)?.id;
  const told = await typed(h, ALICE, OPS, 'setup');
  return { told, opened: h.slack.topView(ALICE)?.id !== before };
});

const NOT_OURS = /Slack says you are not a member of this Slack workspace/;
const WORKSPACE_ADMINS = /Only the admins and owners of this Slack workspace connect it/;
const ORG_ADMINS = /only an admin or owner of the organisation/;
const DEACTIVATED = /Slack says the account this acts for is deactivated/;

/** The setup surfaces' rows: driven with "Add to Slack"; with one bot token there is nothing to set up. */
function setupRows(c: MatrixConfig): { [S in 'setup' | 'setup-form']: { [G in GuaranteeId]: Cell } } {
  const none = (why: string) => ({ none: why });
  const row = (driven: Partial<Record<GuaranteeId, Cell>>) =>
    Object.fromEntries(
      GUARANTEES.map((g) => [
        g.id,
        driven[g.id] ?? none(c === 'single-token' ? ONE_TOKEN_NOTHING_TO_SET_UP : SETUP_TAKES_NO_OPERATION),
      ]),
    ) as { [G in GuaranteeId]: Cell };
  const unchanged = async () => {
    const s = await setup();
    expect(s.after).toEqual(s.before);
  };
  if (c === 'single-token')
    return {
      setup: row({
        admin: {
          drive: async () => {
            const n = await nothingToSetUp();
            expect(plain(n.told)).toMatch(/nothing to set up here/);
            expect(n.opened).toBe(false);
          },
        },
      }),
      'setup-form': row({
        admin: none(
          'With one bot token the setup form never opens (driven on the setup surface), so it is never sent.',
        ),
      }),
    };
  return {
    setup: row({
      standing: { drive: async () => expect(plain((await setup()).open.standing)).toMatch(DEACTIVATED) },
      team: { drive: async () => expect(plain((await setup()).open.team)).toMatch(NOT_OURS) },
      admin: {
        drive: async () => {
          const { open } = await setup();
          expect(plain(open.admin)).toMatch(WORKSPACE_ADMINS);
          expect(plain(open.installer)).toMatch(WORKSPACE_ADMINS);
          expect(plain(open.orgWorkspaceAdmin)).toMatch(ORG_ADMINS);
          await unchanged();
        },
      },
    }),
    'setup-form': row({
      standing: {
        drive: async () => {
          expect(plain((await setup()).sent.standing)).toMatch(DEACTIVATED);
          await unchanged();
        },
      },
      team: {
        drive: async () => {
          expect(plain((await setup()).sent.team)).toMatch(NOT_OURS);
          await unchanged();
        },
      },
      admin: {
        drive: async () => {
          const { sent } = await setup();
          expect(plain(sent.admin)).toMatch(WORKSPACE_ADMINS);
          expect(plain(sent.org)).toMatch(ORG_ADMINS);
          await unchanged();
        },
      },
    }),
  };
}

// ---------------------------------------------------------------------------------------------------
// The table: every surface against every guarantee. `drive` asserts what that surface was answered;
// `none` says why the guarantee cannot arise on that surface (never because it was not tried).

type Cell = { drive: () => Promise<void> } | { none: string };

const sameAsTyped = (g: keyof typeof refusals, pattern: RegExp, surface: keyof Answers) => ({
  drive: async () => sameRefusal(await refusals[g](), surface, pattern),
});

const OPERATOR = /^You are not an operator, so you cannot run /;
const CHANNEL = /^The bot does not act in this channel/;
const STANDING = /^Nothing was sent: Slack says the account this acts for is deactivated/;
const IDENTITY = /^Nothing was sent to the service: this bot acts with your own service identity/;

const FORM_IS_A_COMMAND =
  "A form's values become the typed command's operation (core/forms/validate.ts: the entry's own parser and resolver) before the gate, which never sees which surface built it; a form files a live start or reads a flow exactly as the command does.";
const A_MENTION_IS_A_COMMAND =
  "A mention and a direct message hand their text to the typed command's own path (followAsked in slack/command/follow-up.ts: the same reading, the same operation, the same runner); only where the answer goes differs, so what depends on the operation alone is the command's, driven above.";
const THE_PANE_IS_A_COMMAND =
  "A message in the assistant pane is handed to the typed command's own path (readPaneMessage in slack/assistant/reader.ts is followAsked: the same reading, operation and runner), with the channel the person views as its place; only where the answer goes differs, so what depends on the operation alone is the command's, driven above.";
const ADMIN_IS_SETUP =
  "Only a tenant's own service account needs its admins, and it is changed by the setup form alone (the setup surfaces); no operation of this surface touches it.";
const ONE_TOKEN_NOTHING_TO_SET_UP =
  'With one bot token the bot serves with the account its operator configured: `/tsai setup` opens no form and changes nothing (driven under admin).';
const SETUP_TAKES_NO_OPERATION =
  "Setting up changes the tenant's service account itself: it runs no operation of the service (so no operator list, allowed channel, approval or pre-check applies), sends nothing typed anywhere but the account's own check, and acts with the token given in the form.";
const HOME_IS_A_CARD =
  "The Home tab's Approve and Reject are the card's own decideClick (slack/home/follow-up.ts): a decision, whichever surface clicked it, is the same operation through the same gate.";

function casesOf(c: MatrixConfig): { [S in SurfaceId]: { [G in GuaranteeId]: Cell } } {
  return {
    command: {
      masking: {
        drive: async () => {
          const m = await masking();
          for (const x of m.results.filter((y) => y.surface === 'command'))
            expect(x.body).toContain('[a token-like value, not shown]');
        },
      },
      standing: sameAsTyped('standing', STANDING, 'command'),
      identity: sameAsTyped('identity', IDENTITY, 'command'),
      team: {
        drive: async () => {
          expect((await team()).command).toMatch(/There is no flow .* to show here/);
        },
      },
      operator: sameAsTyped('operator', OPERATOR, 'command'),
      channel: sameAsTyped('channel', CHANNEL, 'command'),
      admin: { none: ADMIN_IS_SETUP },
      approval: {
        drive: async () => {
          const a = await approval();
          expect(a.reply).toMatch(/waiting for approval/i);
          expect(a.sent).toEqual([]);
        },
      },
      'live-prechecks': {
        drive: async () => {
          const p = await prechecks();
          expect(plain(p.command)).toMatch(ALREADY_LIVE);
          expect(p.liveFlows).toHaveLength(1);
        },
      },
    },
    mention: {
      masking: {
        drive: async () => {
          const m = await masking();
          const mentions = m.results.filter((y) => y.surface === 'mention');
          expect(mentions.length).toBeGreaterThan(0);
          for (const x of mentions) expect(x.body).toContain('[a token-like value, not shown]');
        },
      },
      standing: sameAsTyped('standing', STANDING, 'mention'),
      identity: sameAsTyped('identity', IDENTITY, 'mention'),
      team: { none: A_MENTION_IS_A_COMMAND },
      operator: sameAsTyped('operator', OPERATOR, 'mention'),
      channel: sameAsTyped('channel', CHANNEL, 'mention'),
      admin: { none: ADMIN_IS_SETUP },
      approval: { none: A_MENTION_IS_A_COMMAND },
      'live-prechecks': { none: A_MENTION_IS_A_COMMAND },
    },
    'direct-message': {
      masking: { none: A_MENTION_IS_A_COMMAND },
      standing: sameInMessagesTab('standing', STANDING),
      identity: sameInMessagesTab('identity', IDENTITY),
      team: { none: A_MENTION_IS_A_COMMAND },
      operator: sameInMessagesTab('operator', OPERATOR),
      channel: sameInMessagesTab('channel', CHANNEL),
      admin: { none: ADMIN_IS_SETUP },
      approval: { none: A_MENTION_IS_A_COMMAND },
      'live-prechecks': { none: A_MENTION_IS_A_COMMAND },
    },
    assistant: {
      masking: {
        drive: async () => {
          const m = await masking();
          const panes = m.results.filter((y) => y.surface === 'assistant');
          expect(panes.length).toBeGreaterThan(0);
          for (const x of panes) expect(x.body).toContain('[a token-like value, not shown]');
          // Nor is it the title of the thread it was typed in.
          const titles = JSON.stringify(h.slack.messages(`D${ALICE}`).map((x) => x.assistantThread?.title));
          for (const t of m.tokens) expect(titles).not.toContain(t.slice(0, 20));
        },
      },
      standing: sameInPane('standing', STANDING),
      identity: sameInPane('identity', IDENTITY),
      team: { none: THE_PANE_IS_A_COMMAND },
      operator: sameInPane('operator', OPERATOR),
      channel: sameInPane('channel', CHANNEL),
      admin: { none: ADMIN_IS_SETUP },
      approval: { none: THE_PANE_IS_A_COMMAND },
      'live-prechecks': { none: THE_PANE_IS_A_COMMAND },
    },
    schedule: {
      masking: {
        drive: async () => {
          const m = await masking();
          const [run] = m.results.filter((y) => y.surface === 'schedule');
          expect(run!.body).toContain('[a token-like value, not shown]');
          expect(m.kept.length).toBeGreaterThan(0);
          for (const s of m.kept) expect(s.command).toContain('[a token-like value, not shown]');
        },
      },
      standing: sameAsTyped('standing', STANDING, 'schedule'),
      identity: sameAsTyped('identity', IDENTITY, 'schedule'),
      team: {
        drive: async () => {
          const t = await team();
          expect(t.schedule).toMatch(/There is no flow .* to show here/);
        },
      },
      operator: sameAsTyped('operator', OPERATOR, 'schedule'),
      channel: sameAsTyped('channel', CHANNEL, 'schedule'),
      admin: { none: ADMIN_IS_SETUP },
      approval: {
        drive: async () => {
          const a = await approval();
          expect(a.schedule).toMatch(/not one of the approvers for workspace "Pump station A"/);
          expect(a.status).toBe('awaiting-approval');
          expect(a.sent).toEqual([]);
        },
      },
      'live-prechecks': {
        drive: async () => {
          const p = await prechecks();
          expect(plain(p.schedule)).toMatch(ALREADY_LIVE);
          expect(p.liveFlows).toHaveLength(1);
        },
      },
    },
    'workflow-step': {
      masking: {
        drive: async () => {
          const m = await masking();
          const steps = m.results.filter((y) => y.surface === 'workflow-step');
          expect(steps.length).toBeGreaterThan(0);
          for (const x of steps) expect(x.body).toContain('[a token-like value, not shown]');
        },
      },
      standing: sameAsTyped('standing', STANDING, 'step'),
      identity: sameAsTyped('identity', IDENTITY, 'step'),
      team: {
        none: "No step reads or decides a record the bot keeps per team: each step's operation creates or looks up something at the service, and its approval request is decided on a card or the Home tab.",
      },
      operator: sameAsTyped('operator', OPERATOR, 'step'),
      channel: sameAsTyped('channel', CHANNEL, 'step'),
      admin: { none: ADMIN_IS_SETUP },
      approval: {
        drive: async () => {
          const a = await approval();
          expect(a.homeTold).toMatch(/not one of the approvers for workspace "Pump station A"/);
          expect(a.sent).toEqual([]);
        },
      },
      'live-prechecks': {
        drive: async () => {
          const p = await prechecks();
          expect(plain(p.step)).toMatch(ALREADY_LIVE);
        },
      },
    },
    form: {
      masking: {
        drive: async () => {
          const secret = `tsai-pat-form${randomBytes(12).toString('hex')}`;
          registerSecrets(secret);
          await h.clearServiceRequests();
          const told = await form(h, ALICE, OPS, `formed ${secret}`);
          expect(told).toMatch(/ANOMALYLEARN/);
          expect(told).toContain('formed [a token-like value, not shown]');
          expect(told).not.toContain(secret.slice(0, 20));
          const sent = JSON.stringify(await h.askedOfService());
          expect(sent).toContain('formed [a token-like value, not shown]');
          expect(sent).not.toContain(secret.slice(0, 20));
        },
      },
      standing: {
        drive: async () => expect(plain(await form(h, DAVE, OPS, 'never'))).toMatch(STANDING),
      },
      identity: {
        drive: async () => expect(plain(await form(r, ERIN, OPS, 'not connected'))).toMatch(IDENTITY),
      },
      team: { none: FORM_IS_A_COMMAND },
      operator: {
        drive: async () => {
          const refused = plain(await form(h, CAROL, OPS, 'never'));
          expect(refused).toMatch(OPERATOR);
          const typedOne = (await refusals.operator()).get('tsai_learn')!;
          expect(refused).toContain(plain(typedOne.schedule));
        },
      },
      channel: {
        drive: async () => expect(plain(await form(h, ALICE, OFF, 'never'))).toMatch(CHANNEL),
      },
      admin: { none: ADMIN_IS_SETUP },
      approval: { none: FORM_IS_A_COMMAND },
      'live-prechecks': { none: FORM_IS_A_COMMAND },
    },
    button: {
      masking: {
        drive: async () => {
          const secret = `xoxp-${randomBytes(16).toString('hex')}`;
          registerSecrets(secret);
          const { request: q, card } = await filed(h, FRANK, '1070000000000000802', 'matrix reject');
          const before = h.slack.topView(CAROL)?.id;
          await click(h, CAROL, card, 'approval_reject');
          const view = await h.slack.waitFor(
            () => {
              const v = h.slack.topView(CAROL);
              return v && v.id !== before ? v : undefined;
            },
            60_000,
            'the reason form',
          );
          await h.slack.submitView({
            user: CAROL,
            viewId: view.id,
            values: { [REJECT_REASON_BLOCK]: { [REJECT_REASON_ACTION]: `pasted ${secret} by mistake` } },
          });
          const rejected = await eventually(async () => {
            const x = await h.store.getApproval(q.id);
            return x?.status === 'rejected' ? x : undefined;
          });
          expect(rejected.rejectReason).toBe('pasted [a token-like value, not shown] by mistake');
          expect(JSON.stringify(await h.store.listAudit({ limit: 500 }))).not.toContain(secret.slice(0, 20));
        },
      },
      standing: {
        drive: async () => {
          const { request: q, card } = await filed(h, FRANK, '1070000000000000803', 'matrix standing');
          const told = await (await click(h, DAVE, card, 'approval_approve'))();
          expect(plain(textOf(told))).toMatch(STANDING);
          expect((await h.store.getApproval(q.id))?.status).toBe('pending');
        },
      },
      identity: {
        drive: async () => {
          // Carol approves with her own identity, which she has not connected: the request stays pending.
          const { request: q, card } = await filed(r, ALICE, '1070000000000000804', 'matrix identity');
          const told = await (await click(r, CAROL, card, 'approval_approve'))();
          expect(plain(textOf(told))).toMatch(IDENTITY);
          expect((await r.store.getApproval(q.id))?.status).toBe('pending');
        },
      },
      team: {
        drive: async () => {
          const t = await team();
          expect(t.button).toMatch(/not known to this bot/);
          expect(t.request?.status).toBe('pending');
        },
      },
      operator:
        c === 'add-to-slack'
          ? {
              none: "With Add to Slack the operators are people named at start (a user group belongs to one workspace), so nobody stops being one while the bot runs; the same check, on the requester's behalf at the approval, is driven with one bot token, where a group's member is removed.",
            }
          : {
              drive: async () => {
                // Frank asked while an operator, and is none by the time Carol approves: the flow is not made.
                const { request: q, card } = await filed(h, FRANK, '1070000000000000805', 'matrix operator');
                const group = h.slack.state.usergroups.get(OPERATORS)!;
                group.users = group.users.filter((u) => u !== FRANK);
                // Past the cache of the operators' group.
                h.clock.set(NOW + 10 * HOUR);
                await click(h, CAROL, card, 'approval_approve');
                const decided = await eventually(async () => {
                  const x = await h.store.getApproval(q.id);
                  return x && x.status !== 'pending' && x.status !== 'executing' ? x : undefined;
                });
                expect(decided.flowId).toBeNull();
                expect(decided.error).toMatch(/the person who asked for it is no longer an operator/);
              },
            },
      channel: {
        none: "A request is filed where the bot acts (its command passed the gate there) and the allowed channels are read once, at start; the flow an approval creates passes the policy on its requester's behalf in that channel, as the schedule surface shows for a channel taken off the list.",
      },
      admin: { none: ADMIN_IS_SETUP },
      approval: {
        drive: async () => {
          const a = await approval();
          expect(a.button).toMatch(/not one of the approvers for workspace "Pump station A"/);
          expect(a.sent).toEqual([]);
        },
      },
      'live-prechecks': {
        drive: async () => {
          const p = await prechecks();
          expect(plain(p.button)).toMatch(ALREADY_LIVE);
        },
      },
    },
    home: {
      masking: { none: HOME_IS_A_CARD },
      standing: { none: HOME_IS_A_CARD },
      identity: { none: HOME_IS_A_CARD },
      team: { none: HOME_IS_A_CARD },
      operator: { none: HOME_IS_A_CARD },
      channel: { none: HOME_IS_A_CARD },
      admin: { none: ADMIN_IS_SETUP },
      approval: {
        drive: async () => {
          const a = await approval();
          expect(a.homeTold).toMatch(/not one of the approvers for workspace "Pump station A"/);
        },
      },
      'live-prechecks': { none: HOME_IS_A_CARD },
    },
    ...setupRows(c),
  };
}

/** Registers the matrix for one configuration (its test file's): the stacks, the scenarios, the table. */
export function gateMatrix(c: MatrixConfig): void {
  const CASES = casesOf(c);
  beforeAll(() => startStacks(c));
  afterAll(async () => {
    await Promise.all([h?.close(), r?.close()]);
  });

  describe('the scenarios, each once, in the order of the bot’s clock', () => {
    it('drives every scenario the cells read', { timeout: 900_000 }, async () => {
      await Promise.all([
        refusals.identity(),
        (async () => {
          await refusals.operator();
          await refusals.channel();
          await refusals.standing();
          await masking();
          await approval();
          await prechecks();
          await team();
          await (config === 'single-token' ? nothingToSetUp() : setup());
        })(),
      ]);
      await inMessagesTab();
    });
  });

  describe('the matrix is whole: every surface against every guarantee', () => {
    it('has a case for each, and none for a surface or guarantee the lists do not name', () => {
      expect(Object.keys(CASES).sort()).toEqual(SURFACES.map((s) => s.id).sort());
      for (const s of SURFACES)
        expect(Object.keys(CASES[s.id]).sort(), s.id).toEqual(GUARANTEES.map((g) => g.id).sort());
    });

    it('drives every guarantee on the three surfaces that act on their own: a command, a schedule and a step', () => {
      // The admin guarantee concerns the tenant's own account alone: the setup surfaces drive it.
      for (const s of ['command', 'schedule', 'workflow-step'] as const)
        for (const g of GUARANTEES)
          if (!(s === 'workflow-step' && g.id === 'team') && g.id !== 'admin')
            expect('drive' in CASES[s][g.id], `${s} × ${g.id}`).toBe(true);
    });

    it('generates its operations from the registry: every step, typed, scheduled and run', () => {
      expect(OPS_OF_STEPS.map((o) => o.step.callbackId)).toEqual(allSteps().map((s) => s.callbackId));
      for (const o of OPS_OF_STEPS) expect(commandArguments(o.command), o.command).toBeDefined();
    });
  });

  for (const s of SURFACES)
    describe(`${s.id}: ${s.asks}`, () => {
      for (const g of GUARANTEES) {
        const cell = CASES[s.id][g.id];
        if ('drive' in cell) it(`${g.id}: ${g.says}`, cell.drive);
        else
          it(`${g.id} does not arise here: ${cell.none}`, () => expect(cell.none.length).toBeGreaterThan(40));
      }
    });

  // Last, once every cell has driven its surface.
  describe('each surface is audited under its own name', () => {
    it('names the surface that asked on the audit line of what it asked', async () => {
      const vias = new Set((await h.store.listAudit({ limit: 5_000 })).map((e) => e.params.via));
      const setUp = new Set<string>(['setup', 'setup-form']);
      for (const surface of SURFACES.map((x) => x.id).filter(
        (id) => config === 'add-to-slack' || !setUp.has(id),
      ))
        expect(vias.has(surface), surface).toBe(true);
      // Never the old names of a surface: a step was audited as "workflow", a button as a typed command.
      expect(vias.has('workflow')).toBe(false);
    });
  });

  describe('a secret typed anywhere is kept nowhere', () => {
    it('not in the service, the store or the logs, whichever surface it was typed into', async () => {
      const m = await masking();
      const kept = JSON.stringify([
        await h.store.listSchedules(),
        await h.store.listAudit({ limit: 1000 }),
        await h.store.listApprovals(),
      ]);
      const logs = h.logs.join('\n');
      for (const t of m.tokens) {
        for (const x of m.results) expect(x.body).not.toContain(t.slice(0, 20));
        expect(kept).not.toContain(t.slice(0, 20));
        expect(logs).not.toContain(t.slice(0, 20));
      }
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldActionId, MODAL_ACTION, MODAL_CALLBACK } from '../../src/slack/forms/views/ids.js';
import { decodeMeta } from '../../src/slack/forms/views/metadata.js';
import { type FaultSpec, type LoggedRequest, SEED } from '../../standins/emulator/index.js';
import {
  DEFAULT_CHANNELS,
  DEFAULT_USERS,
  type LocalMessage,
  type OpenView,
} from '../../standins/localslack/index.js';
import { emulatorControl, eventually } from '../support/emulator.js';
import { type Harness, startHarness } from '../support/harness.js';

// The service failing in every way the emulator can fail it, met by every operation of the bot as Slack
// drives it (signed slash commands, a form submission, an Approve click) and by the poll that follows
// created flows. For each cell: what the person is told, how many requests reached the service (the
// emulator's log), what the service did (its state, the bot's audit log), and that the bot works as
// before once the fault is gone. The client-level matrix is test/api-fault-matrix.test.ts; this one is what people see of it.
//
// One bot for the whole matrix. Each fault is one describe; its cells run side by side in lanes (the
// operations whose requests look alike run one after another in one lane), each cell's fault aimed at
// that cell's requests alone (path, query, the name in the body) and spent by exactly the attempts the
// bot should make, so that the same operation right after it must succeed.

const S = SEED;
const W = S.workspaces.pumpStation;
const SANDBOX = S.workspaces.sandbox;
const T = S.signals.temperature;
const ANOMALY = S.models.temperatureAnomaly;
const ALICE = 'U0ALICE';
const BOB = 'U0BOB';
const OPS = 'C0OPS';
const RANGE = 'range="2026-11-20 to 2026-11-21"';

/** The bot's configuration for this run, through its documented variables. */
// Long enough that a machine kept busy by other work, where this process's emulator handles a request late,
// does not turn a 429 the bot should honour into a timeout it may retry at once.
const TIMEOUT_MS = 6_000;
const ATTEMPTS = 2;
/** Longer than the client's timeout, so that every attempt times out while the service still acts. */
const LATENCY_MS = 9_000;
/** Retry-After of every 429: above the tracking poll's interval (400 ms), so honouring it shows. */
const RETRY_AFTER_S = 1;

const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** How a fault meets each class of operation: the rows of the matrix. */
interface FaultRow {
  name: string;
  spec: FaultSpec;
  /** GET: requests the emulator receives for one command (retried ones: the client's attempts). */
  read: { attempts: number; says: RegExp };
  /** PUT (model move): the same, and whether the service made the move. */
  put: { attempts: number; says: RegExp; moved: boolean };
  /**
   * A creating POST, sent once whatever happens. `unknown`: the person is told it may exist (otherwise
   * that nothing was created); `created`: what the service did.
   */
  post: { unknown: boolean; created: 0 | 1 };
}

const GATEWAY = (status: number) => new RegExp(`through its gateway \\(HTTP ${status}\\)`);
const PUT_MAYBE = /so the change may or may not have been made; repeating it is safe/;
const RESET = /failed before it answered \(\w+\)/;

const FAULTS: FaultRow[] = [
  {
    name: '500',
    spec: { status: 500 },
    read: { attempts: 1, says: /failed to handle the request \(HTTP 500\); try again later/ },
    put: { attempts: 1, says: /\(HTTP 500\), so the change should not have been made/, moved: false },
    post: { unknown: false, created: 0 },
  },
  {
    name: '502',
    spec: { status: 502 },
    read: { attempts: ATTEMPTS, says: GATEWAY(502) },
    put: { attempts: ATTEMPTS, says: PUT_MAYBE, moved: false },
    post: { unknown: true, created: 0 },
  },
  {
    name: '503',
    spec: { status: 503 },
    read: { attempts: ATTEMPTS, says: /unavailable right now \(HTTP 503\); try again later/ },
    put: { attempts: ATTEMPTS, says: /\(HTTP 503\), so nothing was changed; try again later/, moved: false },
    post: { unknown: false, created: 0 },
  },
  {
    name: '504',
    spec: { status: 504 },
    read: { attempts: ATTEMPTS, says: GATEWAY(504) },
    put: { attempts: ATTEMPTS, says: PUT_MAYBE, moved: false },
    post: { unknown: true, created: 0 },
  },
  {
    name: '429 with Retry-After',
    spec: { status: 429, retryAfter: RETRY_AFTER_S },
    read: { attempts: ATTEMPTS, says: /limiting the request rate; try again in about 1 s/ },
    put: {
      attempts: ATTEMPTS,
      says: /limiting the request rate, so nothing was changed; try again in about 1 s/,
      moved: false,
    },
    post: { unknown: false, created: 0 },
  },
  {
    name: 'latency past the timeout',
    spec: { latencyMs: LATENCY_MS },
    read: {
      attempts: ATTEMPTS,
      says: new RegExp(`did not answer within ${TIMEOUT_MS / 1000} s; try again later`),
    },
    put: { attempts: ATTEMPTS, says: PUT_MAYBE, moved: true },
    post: { unknown: true, created: 1 },
  },
  {
    name: 'connection reset before handling',
    spec: { reset: 'before' },
    read: { attempts: ATTEMPTS, says: RESET },
    put: { attempts: ATTEMPTS, says: PUT_MAYBE, moved: false },
    post: { unknown: true, created: 0 },
  },
  {
    name: 'connection reset after handling',
    spec: { reset: 'after' },
    read: { attempts: ATTEMPTS, says: RESET },
    put: { attempts: ATTEMPTS, says: PUT_MAYBE, moved: true },
    post: { unknown: true, created: 1 },
  },
  {
    name: 'malformed JSON',
    spec: { corrupt: 'malformed-json' },
    read: { attempts: 1, says: /cannot read its answer \(not valid JSON\); nothing was changed/ },
    put: { attempts: 1, says: /cannot confirm the change; it has probably been made/, moved: true },
    post: { unknown: true, created: 1 },
  },
  {
    name: 'non-JSON error body',
    spec: { status: 502, body: NGINX_502, contentType: 'text/html' },
    read: {
      attempts: ATTEMPTS,
      says: /through its gateway \(HTTP 502\); try again later: 502 Bad Gateway\.$/m,
    },
    put: { attempts: ATTEMPTS, says: PUT_MAYBE, moved: false },
    post: { unknown: true, created: 0 },
  },
  {
    name: '200 of the wrong shape',
    spec: { corrupt: 'wrong-shape' },
    read: {
      attempts: 1,
      says: /cannot read its answer \(not a (record with an id|list of models)\); nothing/,
    },
    put: { attempts: 1, says: /cannot confirm the change; it has probably been made/, moved: true },
    post: { unknown: true, created: 1 },
  },
];

let h: Harness;
let control: ReturnType<typeof emulatorControl>;
/** A flow the bot does not follow, for `/tsai flow <id>`. */
let unfollowed: string;

const TRACK_CHANNELS = FAULTS.map((_, i) => ({ id: `C0TRACK${i}`, name: `track-${i}` }));

beforeAll(async () => {
  h = await startHarness({
    env: {
      TSAI_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
      TSAI_MAX_ATTEMPTS: String(ATTEMPTS),
      TSAI_MAX_RETRY_TIME_MS: '20000',
      TSAI_TRACK_FIRST_POLL: '100ms',
      TSAI_TRACK_MAX_INTERVAL: '400ms',
      TSAI_APPROVERS: BOB,
    },
    // Flows created by the cells end soon, so that following them stops.
    flowDelays: { runningAfterMs: 200, completedAfterMs: 600 },
    users: DEFAULT_USERS,
    channels: [...DEFAULT_CHANNELS, ...TRACK_CHANNELS],
  });
  control = emulatorControl(h.emulator.url);
  // Live starts stay RUNNING, so the pressure M[0] never becomes live: every cell's start is one the bot's
  // pre-checks pass on to the approvers.
  await control('POST', 'flow-rules', { flowType: 'STARTLIVEMODEL', status: 'RUNNING' });
  unfollowed = (await h.service.startLiveModel({ name: 'not followed', model: S.models.pressureCommon })).id;
});
afterAll(async () => {
  await h?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: tests read Block Kit JSON by path
type Block = Record<string, any>;

/** What a person reads of a message: its text and every text in its blocks, in order. */
function shown(m: LocalMessage | undefined): string {
  if (!m) return '';
  const out: string[] = [m.text];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Block;
      if (typeof o.text === 'string') out.push(o.text);
      for (const [k, x] of Object.entries(o)) if (k !== 'text' || typeof x !== 'string') walk(x);
    }
  };
  walk(m.blocks ?? []);
  return out.join('\n');
}
const buttonsOf = (m: LocalMessage | undefined) =>
  ((m?.blocks ?? []) as Block[])
    .filter((b) => b.type === 'actions')
    .flatMap((b) => (b.elements as Block[]).map((e) => e.action_id as string));
const botMessages = (channel: string) =>
  h.slack.messages(channel).filter((m) => m.user === h.slack.botUserId && !m.threadTs);
const current = (channel: string, ts: string) => h.slack.messages(channel).find((m) => m.ts === ts);

interface Emulated {
  flows: { id: string; name?: string; flowType?: string; spec?: { model?: string } }[];
  workspaces: { id: string; name?: string }[];
  models: { id: string; workspace?: string }[];
}
const state = async () => (await control('GET', 'state')) as Emulated;

/** Which requests a fault is aimed at: one cell's, and no other cell's running at the same time. */
interface Target {
  method: 'GET' | 'PUT' | 'POST';
  path: string;
  query?: string;
  requestBody?: string;
}
/** The requests the emulator logged after `since` (a log sequence number) that `target` matches. */
async function requestsTo(target: Target, since: number): Promise<LoggedRequest[]> {
  const log = (await control('GET', `requests?since=${since}`)) as LoggedRequest[];
  const match = (re: string | undefined, text: string) => re === undefined || new RegExp(re).test(text);
  return log.filter(
    (r) =>
      r.method === target.method &&
      match(target.path, r.path) &&
      match(target.query, new URLSearchParams(r.query).toString()) &&
      match(target.requestBody, typeof r.body === 'string' ? r.body : JSON.stringify(r.body ?? '')),
  );
}
const lastSeq = async () =>
  ((await control('GET', 'requests')) as LoggedRequest[]).reduce((n, r) => Math.max(n, r.seq), 0);
/** Until the emulator has handled every request of `sent` it held back (injected latency). */
const landed = (sent: LoggedRequest[], target: Target, since: number) =>
  eventually(async () => {
    const now = await requestsTo(target, since);
    return sent.every((r) => now.find((n) => n.seq === r.seq)?.status !== undefined) ? true : undefined;
  }, LATENCY_MS + 10_000);

/**
 * `/tsai <text>` by Alice in #ops, and the bot's answer to it: its first message after the command that
 * quotes the command back (every answer does) or names `marker`.
 */
async function ask(text: string, marker = `/tsai ${text}`): Promise<LocalMessage> {
  const before = new Set(h.slack.messages(OPS).map((m) => m.ts));
  const d = await h.command(text, { user: ALICE, channel: OPS });
  if (d.status !== 200) throw new Error(`/tsai ${text} was answered ${d.status}`);
  return answerAfter(before, marker);
}

/** A copy of the answer as it first came: an announcement changes later with its flow's status. */
async function answerAfter(before: Set<string>, marker: string): Promise<LocalMessage> {
  // The marker whole: `name=f8-learn` must not match the answer to another lane's `name=f8-learn-from-the-form`.
  const whole = new RegExp(`${marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`);
  const answer = await h.slack.waitFor(
    () =>
      h.slack
        .messages(OPS, { user: ALICE })
        .find(
          (m) => !before.has(m.ts) && m.user === h.slack.botUserId && !m.threadTs && whole.test(shown(m)),
        ),
    15_000,
    `the answer naming ${marker}`,
  );
  return structuredClone(answer);
}

async function probe(path: '/healthz' | '/readyz'): Promise<number> {
  return (await fetch(`http://127.0.0.1:${h.bot.port()}${path}`)).status;
}

interface Op {
  name: string;
  kind: 'read' | 'put' | 'post';
  /** Operations whose requests look alike share a lane and run one after another. */
  lane: string;
  /** This cell's requests (`tag` names the cell). */
  target(tag: string): Target;
  /** Runs it as a person does: the bot's answer. */
  run(tag: string): Promise<LocalMessage>;
  /** What its answer says when the service is well. */
  ok: RegExp;
  /** A POST: how many things named `tag` the service holds, and what it creates. */
  made?(tag: string): Promise<number>;
  creates?: 'flow' | 'workspace';
  /** Requests that must not have been sent at all. */
  notSent?(tag: string): Target;
}

const flowsNamed = async (tag: string) => (await state()).flows.filter((f) => f.name === tag).length;
const FLOWS_12 = '/api/1\\.2/accounts/\\d+/flows$';
const FLOWS_13 = '/api/1\\.3/accounts/\\d+/flows$';
const named = (tag: string) => `"name":"${tag}"`;
const m0Of = (assessment: string) => `(^|&)assessment=${assessment}(&|$)`;
const EVAL = (tag: string) =>
  `eval ${S.assessments.temperature} model=${ANOMALY} datastream=${S.datastream} entities=pump-1 ${RANGE} name=${tag}`;

const COMMAND_OPS: Op[] = [
  {
    name: 'workspace show',
    kind: 'read',
    lane: 'workspace show',
    target: () => ({ method: 'GET', path: `/workspace/${W}$` }),
    run: () => ask(`workspace show ${W}`),
    ok: /Workspace ID/,
  },
  {
    name: 'model common',
    kind: 'read',
    lane: 'M[0] of pressure',
    target: () => ({ method: 'GET', path: '/models$', query: m0Of(S.assessments.pressure) }),
    run: () => ask(`model common ${S.assessments.pressure}`),
    ok: /Common model \(M\[0\]\) of assessment/,
  },
  {
    name: 'live start assessment=… (filing a request)',
    kind: 'read',
    lane: 'M[0] of pressure',
    target: () => ({ method: 'GET', path: '/models$', query: m0Of(S.assessments.pressure) }),
    run: (tag) => ask(`live start assessment=${S.assessments.pressure} reason=${tag}`, tag),
    ok: /asks to start live model/,
  },
  {
    name: 'flow <id>',
    kind: 'read',
    lane: 'flow <id>',
    target: () => ({ method: 'GET', path: `/flows/${unfollowed}$` }),
    run: () => ask(`flow ${unfollowed}`),
    ok: /Flow not followed/,
  },
  {
    name: "eval's M[0] look-up",
    kind: 'read',
    lane: 'M[0] of temperature',
    target: () => ({ method: 'GET', path: '/models$', query: m0Of(S.assessments.temperature) }),
    run: (tag) => ask(EVAL(tag)),
    ok: /started an EVAL flow/,
    notSent: (tag) => ({ method: 'POST', path: FLOWS_12, requestBody: named(tag) }),
  },
  {
    name: 'model move',
    kind: 'put',
    lane: 'model move',
    target: () => ({ method: 'PUT', path: `/models/${ANOMALY}$` }),
    run: () => ask(`model move ${ANOMALY} to ${SANDBOX}`),
    ok: /moved a model to another workspace/,
  },
  {
    name: 'workspace create',
    kind: 'post',
    lane: 'workspace create',
    target: (tag) => ({ method: 'POST', path: '/workspace$', requestBody: named(tag) }),
    run: (tag) => ask(`workspace create ${tag}`),
    ok: /created a workspace/,
    made: async (tag) => (await state()).workspaces.filter((w) => w.name === tag).length,
    creates: 'workspace',
  },
  {
    name: 'eval',
    kind: 'post',
    // Its M[0] look-up is the request the look-up's cell aims at.
    lane: 'M[0] of temperature',
    target: (tag) => ({ method: 'POST', path: FLOWS_12, requestBody: named(tag) }),
    run: (tag) => ask(EVAL(tag)),
    ok: /started an EVAL flow/,
    made: flowsNamed,
    creates: 'flow',
  },
  {
    name: 'learn',
    kind: 'post',
    lane: 'learn',
    target: (tag) => ({ method: 'POST', path: FLOWS_13, requestBody: named(tag) }),
    run: (tag) => ask(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=${tag}`),
    ok: /started an ANOMALYLEARN flow/,
    made: flowsNamed,
    creates: 'flow',
  },
  {
    name: 'relearn',
    kind: 'post',
    lane: 'relearn',
    target: (tag) => ({ method: 'POST', path: FLOWS_13, requestBody: named(tag) }),
    run: (tag) => ask(`relearn ${ANOMALY} workspace=${W} dataspec=${S.dataspec} name=${tag}`),
    ok: /started an incremental ANOMALYLEARN flow/,
    made: flowsNamed,
    creates: 'flow',
  },
  {
    name: 'score',
    kind: 'post',
    lane: 'score',
    target: (tag) => ({ method: 'POST', path: FLOWS_13, requestBody: named(tag) }),
    run: (tag) => ask(`score ${ANOMALY} workspace=${W} dataspec=${S.dataspec} prefix=p-${tag} name=${tag}`),
    ok: /started an ANOMALYEVAL flow/,
    made: flowsNamed,
    creates: 'flow',
  },
  {
    name: 'learn from the form',
    kind: 'post',
    lane: 'learn from the form',
    target: (tag) => ({ method: 'POST', path: FLOWS_13, requestBody: named(tag) }),
    run: submitLearnForm,
    ok: /started an ANOMALYLEARN flow/,
    made: flowsNamed,
    creates: 'flow',
  },
];

/** Opens the Learn form from a command, fills it in as a person does, submits it: the bot's answer. */
async function submitLearnForm(tag: string): Promise<LocalMessage> {
  // Slack's trigger to open a form lasts 3 s: on a starved machine it can run out, and a person would
  // simply run the command again.
  const v = await openLearnForm().catch(() => openLearnForm());
  const offered = await h.slack.sendOptionsRequest({
    user: ALICE,
    viewId: v.id,
    blockId: 'signals',
    actionId: fieldActionId('signals'),
    value: `${T}:temperature`,
  });
  const signal = offered.options?.[0]?.value;
  if (!signal) throw new Error('the form offered no signal');
  const before = new Set(h.slack.messages(OPS).map((m) => m.ts));
  const d = await h.slack.submitView({
    user: ALICE,
    viewId: v.id,
    values: {
      name: { [fieldActionId('name')]: tag },
      signals: { [fieldActionId('signals')]: [signal] },
      range_1: { [MODAL_ACTION.range]: '2026-11-20 to 2026-11-21' },
    },
  });
  if (d.errors) throw new Error(`the form was refused: ${JSON.stringify(d.errors)}`);
  return answerAfter(before, `name=${tag}`);
}

async function openLearnForm(): Promise<OpenView> {
  const previous = h.slack.topView(ALICE)?.id;
  const opened = await h.command(`learn workspace=${W}`, { user: ALICE, channel: OPS });
  if (opened.status !== 200) throw new Error(`the form's command was answered ${opened.status}`);
  return h.slack.waitFor(
    (s) => {
      const view = s.topView(ALICE);
      if (!view || view.view.callback_id !== MODAL_CALLBACK.learn || view.id === previous) return undefined;
      return decodeMeta(view.view.private_metadata as string)?.timeZone ? view : undefined;
    },
    10_000,
    'the learn form',
  );
}

/** What a person is told for a POST whose outcome is unknown: it may exist, and where to look. */
function expectMayExist(said: string, name: string, what: 'flow' | 'workspace') {
  expect(said).toContain('It may have been created');
  expect(said).toContain(`named "${name}"`);
  if (what === 'flow') {
    expect(said).toContain("service's Activity view");
    expect(said).toContain('`/tsai flow &lt;ID&gt;`');
  }
  expect(said).not.toMatch(/\bfailed\b|nothing was created/);
}

/** The outcomes of the audit entries of the creating requests named `tag`. */
async function auditOf(tag: string) {
  const entries = await h.store.listAudit({ operationPrefixes: ['flow.', 'workspace.'], limit: 1000 });
  return entries.filter((e) => e.params.name === tag).map((e) => e.outcome);
}

const CELLS = FAULTS.map((f, i) => ({ ...f, i }));
type Cell = (typeof CELLS)[number];

/** What one command cell showed. */
interface Observed {
  tag: string;
  answer: LocalMessage;
  /** The cell's requests the emulator received, before the operation was run again. */
  sent: LoggedRequest[];
  notSent: LoggedRequest[];
  /** PUT: whether the service moved the model. */
  moved?: boolean;
  /** POST: how many things named as the cell the service holds, and the cell's audit outcomes. */
  made?: number;
  audit?: string[];
  /** The same operation right after, and the health probes. */
  again: LocalMessage;
  madeAgain?: number;
  probes: number[];
}

async function observe(op: Op, fault: Cell): Promise<Observed> {
  const tag = `f${fault.i}-${op.name.replace(/\W+/g, '-').replace(/^-|-$/g, '')}`;
  const target = op.target(tag);
  if (op.kind === 'put') await h.service.moveModel(ANOMALY, W);
  const since = await lastSeq();
  const attempts = op.kind === 'read' ? fault.read.attempts : op.kind === 'put' ? fault.put.attempts : 1;
  await control('POST', 'faults', { ...target, count: attempts, ...fault.spec });

  const answer = await op.run(tag);
  const sent = await requestsTo(target, since);
  // What a delayed request does lands after the answer: wait for it where it does something.
  if (fault.spec.latencyMs !== undefined && op.kind !== 'read') await landed(sent, target, since);
  const o: Observed = {
    tag,
    answer,
    sent,
    notSent: op.notSent ? await requestsTo(op.notSent(tag), since) : [],
    again: answer,
    probes: [],
  };
  if (op.kind === 'put')
    o.moved = (await state()).models.find((m) => m.id === ANOMALY)?.workspace === SANDBOX;
  if (op.made) {
    o.made = await op.made(tag);
    o.audit = await auditOf(tag);
  }
  // The fault is spent: the same operation right after must work.
  o.again = await op.run(`${tag}-ok`);
  if (op.made) o.madeAgain = await op.made(`${tag}-ok`);
  o.probes = [await probe('/healthz'), await probe('/readyz')];
  return o;
}

/** What the approved live start showed. */
interface Approved {
  card: LocalMessage;
  told: LocalMessage;
  sent: LoggedRequest[];
  /** STARTLIVEMODEL flows of the model the service holds, before and after the click. */
  before: number;
  after: number;
  /** The card once Retry (a definitive failure) or a new request's Approve (otherwise) has run. */
  again: LocalMessage;
  afterAgain: number;
}

const LIVE_MODEL = S.models.pressureCommon;
/**
 * The flow's name as the bot sends it: the model, the requester and the approver by name, the bot's clock
 * (the harness's, fixed).
 */
const LIVE_FLOW_NAME = `live start ${LIVE_MODEL} requested by @alice, approved by @bob 2026-11-22 10:00Z`;
const liveStarts = async () =>
  (await state()).flows.filter((f) => f.flowType === 'STARTLIVEMODEL' && f.spec?.model === LIVE_MODEL).length;

/** Alice asks for the pressure M[0] to go live; the request's card once posted. */
async function fileLiveStart(tag: string): Promise<LocalMessage> {
  const before = new Set(h.slack.messages(OPS).map((m) => m.ts));
  const d = await h.command(`live start ${LIVE_MODEL} reason=${tag}`, { user: ALICE, channel: OPS });
  if (d.status !== 200) throw new Error(`the request was answered ${d.status}`);
  return h.slack.waitFor(
    () =>
      botMessages(OPS).find(
        (m) => !before.has(m.ts) && shown(m).includes(tag) && buttonsOf(m).includes('approval_approve'),
      ),
    5_000,
    `the request ${tag}`,
  );
}

/** Bob clicks `action` on the card; the card once the decision has run its course. */
async function decide(card: LocalMessage, action: 'approval_approve' | 'approval_retry') {
  const edits = current(OPS, card.ts)?.edits ?? 0;
  const d = await h.slack.clickButton({ user: BOB, channel: OPS, messageTs: card.ts, actionId: action });
  if (d.status !== 200) throw new Error(`the click was answered ${d.status}`);
  return h.slack.waitFor(
    () => {
      const m = current(OPS, card.ts);
      // A copy: the card itself changes with what comes after.
      return m &&
        m.edits > edits &&
        /Approved and executed|could not be created|outcome unknown/.test(shown(m))
        ? structuredClone(m)
        : undefined;
    },
    15_000,
    'the decided card',
  );
}

async function approveThrough(fault: Cell): Promise<Approved> {
  const tag = `f${fault.i}-approved`;
  const target: Target = { method: 'POST', path: FLOWS_12, requestBody: named(LIVE_FLOW_NAME) };
  const card = await fileLiveStart(tag);
  const before = await liveStarts();
  const since = await lastSeq();
  await control('POST', 'faults', { ...target, count: 1, ...fault.spec });
  const decided = await decide(card, 'approval_approve');
  const sent = await requestsTo(target, since);
  if (fault.spec.latencyMs !== undefined) await landed(sent, target, since);
  const told = await h.slack.waitFor(
    () => h.slack.messages(OPS, { threadTs: card.ts }).find((m) => m.user === h.slack.botUserId),
    5_000,
    'the note to the requester',
  );
  const after = await liveStarts();
  const again = fault.post.unknown
    ? await decide(await fileLiveStart(`${tag}-ok`), 'approval_approve')
    : await decide(decided, 'approval_retry');
  return { card: decided, told, sent, before, after, again, afterAgain: await liveStarts() };
}

const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));
function lanes(ops: Op[]): Op[][] {
  const by = new Map<string, Op[]>();
  for (const op of ops) by.set(op.lane, [...(by.get(op.lane) ?? []), op]);
  return [...by.values()];
}

describe.each(CELLS)('$name', (fault) => {
  const seen = new Map<string, Observed | Error>();
  let approved: Approved | Error | undefined;
  beforeAll(async () => {
    await control('DELETE', 'faults');
    await Promise.all([
      ...lanes(COMMAND_OPS).map(async (lane) => {
        for (const op of lane) seen.set(op.name, await observe(op, fault).catch(asError));
      }),
      approveThrough(fault)
        .catch(asError)
        .then((a) => {
          approved = a;
        }),
    ]);
  }, 120_000);

  it.each(COMMAND_OPS)('$name', (op) => {
    const o = seen.get(op.name);
    if (o === undefined || o instanceof Error) throw o ?? new Error('not run');
    const text = shown(o.answer);
    // The answer is the person's alone, and says what went wrong, never a success.
    expect(o.answer.ephemeralTo).toBe(ALICE);
    expect(text).not.toMatch(op.ok);
    expect(text).not.toContain(h.emulator.token);
    if (op.kind === 'read') {
      expect(o.sent).toHaveLength(fault.read.attempts);
      expect(text).toMatch(fault.read.says);
    } else if (op.kind === 'put') {
      expect(o.sent).toHaveLength(fault.put.attempts);
      expect(text).toMatch(fault.put.says);
      expect(o.moved).toBe(fault.put.moved);
    } else {
      // Never sent twice, whatever came back; recorded once, as unknown or as an error, never as done.
      expect(o.sent).toHaveLength(1);
      if (fault.post.unknown) expectMayExist(o.answer.text, o.tag, op.creates!);
      else expect(text).toMatch(/so nothing was created|should not have created anything/);
      expect(o.made).toBe(fault.post.created);
      expect(o.audit).toEqual([fault.post.unknown ? 'unknown' : 'error']);
    }
    expect(o.notSent).toEqual([]);
    // Healthy afterwards: the same operation works, and the bot says it is live and ready.
    expect(shown(o.again)).toMatch(op.ok);
    if (op.made) expect(o.madeAgain).toBe(1);
    expect(o.probes).toEqual([200, 200]);
  });

  it('live start, approved: the Approve click creates the flow at most once', () => {
    const a = approved;
    if (a === undefined || a instanceof Error) throw a ?? new Error('not run');
    const said = shown(a.card);
    expect(a.sent).toHaveLength(1);
    if (fault.post.unknown) {
      // Final: nobody can press Retry on a request whose flow may exist.
      expect(said).toContain('Approved, outcome unknown');
      expectMayExist(said, LIVE_FLOW_NAME, 'flow');
      expect(buttonsOf(a.card)).toEqual([]);
      expect(a.told.text).toMatch(/the outcome is unknown/);
    } else {
      expect(said).toContain('Approved, but the flow could not be created');
      expect(said).toMatch(/so nothing was created|should not have created anything/);
      expect(buttonsOf(a.card)).toEqual(['approval_retry']);
      expect(a.told.text).toMatch(/could not be created/);
    }
    expect(a.told.text).toContain(`<@${ALICE}>`);
    expect(a.after - a.before).toBe(fault.post.created);
    // Healthy afterwards: a failed request's Retry creates the flow; otherwise a new request goes through.
    expect(shown(a.again)).toContain('Approved and executed');
    expect(a.afterAgain - a.after).toBe(1);
  });
});

/** What following one flow through one fault showed. */
interface Followed {
  /** The reads of the flow the emulator received, in order. */
  reads: LoggedRequest[];
  /** The flow's row and its thread once the fault had passed, before the flow ended. */
  during: { row: unknown; replies: number };
  /** The statuses the announcement was updated to, in order. */
  updates: string[];
  /** The end notice(s) in the announcement's thread. */
  told: LocalMessage[];
  /** The bot's messages anywhere that name the flow, less the announcement and the end notice. */
  others: LocalMessage[];
  after: unknown;
}

/**
 * Learn in the cell's own channel; the flow runs until the test ends it. Once it is announced, two rounds
 * of reads meet the fault (each round as many attempts as a read makes), then it clears; the flow is ended
 * and the bot must show it and tell its end once.
 */
async function followThrough(fault: Cell): Promise<Followed> {
  const channel = TRACK_CHANNELS[fault.i]!.id;
  const tag = `f${fault.i}-followed`;
  // CREATED until the test ends it: the flow's status changes only once, after the fault.
  await control('POST', 'flow-rules', { name: `^${tag}$`, status: 'CREATED', count: 1 });
  const d = await h.command(`learn workspace=${W} signals=${T}:temperature ${RANGE} name=${tag}`, {
    user: ALICE,
    channel,
  });
  if (d.status !== 200) throw new Error(`the command was answered ${d.status}`);
  const ann = await h.slack.waitFor(
    () => botMessages(channel).find((m) => shown(m).includes(tag)),
    10_000,
    `the announcement of ${tag}`,
  );
  const flowId = /flow (\d{19})/.exec(ann.text)?.[1] ?? '';
  const showing = (status: RegExp, label: string) =>
    h.slack.waitFor(() => (status.test(shown(current(channel, ann.ts))) ? true : undefined), 20_000, label);
  const thread = () => h.slack.messages(channel, { threadTs: ann.ts }).filter((m) => m.threadTs === ann.ts);
  // Faults from here on meet a flow that is followed and announced.
  await eventually(async () =>
    (await h.store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowId }))?.announcement ? true : undefined,
  );

  const route = `/flows/${flowId}$`;
  const faulted = 2 * fault.read.attempts;
  await control('POST', 'faults', { method: 'GET', path: route, count: faulted, ...fault.spec });
  const reads = () => requestsTo({ method: 'GET', path: route }, 0);
  // Until a read after the last faulted one has come back well.
  await eventually(async () => {
    const all = await reads();
    const last = all.findLastIndex((r) => r.fault);
    return all.filter((r) => r.fault).length === faulted && all.slice(last + 1).some((r) => r.status === 200)
      ? true
      : undefined;
  }, 30_000);
  const during = {
    row: await h.store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowId }),
    replies: thread().length,
  };

  await control('POST', `flows/${flowId}/finish`, {});
  await showing(/\*COMPLETED\* after/, `${tag} showing COMPLETED`);
  const told = await h.slack.waitFor(() => (thread().length > 0 ? thread() : undefined), 10_000, 'the end');
  await eventually(async () =>
    (await h.store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowId }))?.finishedAt ? true : undefined,
  );
  const updates = h.slack.calls
    .filter(
      (c) =>
        c.method === 'chat.update' && c.args.channel === channel && c.args.ts === ann.ts && c.response.ok,
    )
    .map((c) => /\*([A-Z]+)\* (for|after)/.exec(JSON.stringify(c.args.blocks))?.[1] ?? '?');
  const others = h.slack
    .snapshot()
    .channels.flatMap((c) => c.messages)
    .filter(
      (m) =>
        m.user === h.slack.botUserId &&
        shown(m).includes(flowId) &&
        m.ts !== ann.ts &&
        !told.some((t) => t.ts === m.ts),
    );
  return {
    reads: await reads(),
    during,
    updates,
    told,
    others,
    after: await h.store.getTrackedFlow({ teamId: 'T0LOCAL', flowId: flowId }),
  };
}

describe('the tracking poll', () => {
  // The cells follow their own flows in their own channels, so they run side by side.
  const followed = new Map<number, Followed | Error>();
  beforeAll(async () => {
    await control('DELETE', 'faults');
    await Promise.all(
      CELLS.map(async (c) =>
        followed.set(
          c.i,
          await followThrough(c).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))),
        ),
      ),
    );
  }, 90_000);

  it.each(CELLS)('$name: the followed flow is read again later, and still ends, told once', (fault) => {
    const f = followed.get(fault.i);
    if (f instanceof Error || f === undefined) throw f ?? new Error('not run');
    // Read again after every failure, the fault's reads all spent, and read well once it cleared.
    expect(f.reads.filter((r) => r.fault)).toHaveLength(2 * fault.read.attempts);
    expect(f.reads.at(-1)?.status).toBe(200);
    // While the service failed: still followed, not ended, nothing said.
    expect(f.during).toEqual({
      row: expect.objectContaining({ status: 'CREATED', endReason: null, finishedAt: null }),
      replies: 0,
    });
    if (fault.spec.retryAfter !== undefined)
      // Lower bounds only: no read came sooner than the service asked after a 429.
      for (let k = 1; k < f.reads.length; k++)
        if (f.reads[k - 1]!.status === 429)
          expect(f.reads[k]!.receivedAt - f.reads[k - 1]!.receivedAt).toBeGreaterThanOrEqual(
            RETRY_AFTER_S * 1000 - 10,
          );
    // The announcement only ever showed statuses; the end was told once; nothing else names the flow.
    // (CREATED again, as the poll first draws it, when its first round came after the announcement.)
    expect(f.updates.filter((u) => u !== 'CREATED')).toEqual(['COMPLETED']);
    expect(f.told.map((m) => m.text)).toEqual([expect.stringMatching(/completed after/)]);
    expect(f.others).toEqual([]);
    expect(f.after).toMatchObject({
      status: 'COMPLETED',
      endReason: 'ended',
      finishedAt: expect.any(Number),
    });
    expect((f.after as { notifiedAt: unknown }).notifiedAt).toEqual(expect.any(Number));
  });
});

it('nothing went wrong inside the bot: no error in its log', () => {
  const lines = h.logs.map((l) => JSON.parse(l) as { level: number; msg: string });
  expect(lines.filter((l) => l.level >= 50).map((l) => l.msg)).toEqual([]);
  // The poll noted each failed read, and read again.
  expect(lines.some((l) => l.msg === 'could not read a followed flow; reading again later')).toBe(true);
});

import { beforeEach, describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import type { LocalMessage } from '../../standins/localslack/index.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import { BOT_TOKEN, type Harness, SIGNING_SECRET } from '../support/harness.js';

const S = SEED;
const ACC = S.accountId;
const W = S.workspaces.pumpStation;
const T = S.signals.temperature;
const P = S.signals.pressure;

let h: Harness;
stackForThisSuite((started) => {
  h = started;
});
beforeEach(async () => {
  await h.clearFaults();
  await h.clearServiceRequests();
});

/** Everything a user sees of a message: fallback text and blocks. */
const seen = (m: LocalMessage) => `${m.text}\n${JSON.stringify(m.blocks ?? [])}`;
const ns = (iso: string) => (BigInt(Date.parse(iso)) * 1_000_000n).toString();
const requestsOf = async () =>
  (await h.serviceRequests()).map((r) => ({ method: r.method, path: r.path, body: r.body }));

async function flowCommand(text: string, user?: string) {
  const reply = await h.commandAndReply(text, user ? { user } : {});
  const requests = await h.serviceRequests();
  return { reply, requests, last: requests.at(-1)! };
}

function expectChannelPost(reply: LocalMessage, flowType: string) {
  expect(reply.ephemeralTo).toBeUndefined();
  const s = seen(reply);
  expect(s).toMatch(/<@U0ALICE> started an? .*flow/);
  expect(s).toMatch(/\*Flow ID\*\\n`14\d{17}`/);
  expect(s).toContain('*Status*\\nCREATED');
  expect(s).toContain('Run by <@U0ALICE>');
  void flowType;
}

describe('each subcommand end to end', () => {
  it('help is ephemeral and lists the commands; help <command> shows examples', async () => {
    const all = await h.commandAndReply('help');
    expect(all.ephemeralTo).toBe('U0ALICE');
    expect(seen(all)).toContain('/tsai workspace create &lt;name&gt;');
    const one = await h.commandAndReply('help eval');
    expect(seen(one)).toContain('Example:');
    expect(await h.askedOfService()).toEqual([]);
  });

  it('workspace create posts in the channel with the new ID', async () => {
    const reply = await h.commandAndReply('workspace create "Pump station 9" description="New pumps"');
    const reqs = await requestsOf();
    expect(reqs).toEqual([
      {
        method: 'POST',
        path: `/api/1.3/accounts/${ACC}/workspace`,
        body: { name: 'Pump station 9', description: 'New pumps' },
      },
    ]);
    expect(reply.ephemeralTo).toBeUndefined();
    expect(seen(reply)).toContain('<@U0ALICE> created a workspace');
    expect(seen(reply)).toMatch(/\*Workspace ID\*\\n`14\d{17}`/);
    expect(seen(reply)).toContain('`Pump station 9`');
  });

  it('workspace show is an ephemeral lookup', async () => {
    const reply = await h.commandAndReply(`workspace show ${W}`);
    expect(await requestsOf()).toEqual(
      [{ method: 'GET', path: `/api/1.3/accounts/${ACC}/workspace/${W}`, body: undefined }].map((r) =>
        expect.objectContaining({ method: r.method, path: r.path }),
      ),
    );
    expect(reply.ephemeralTo).toBe('U0ALICE');
    expect(seen(reply)).toContain('Pump station A');
  });

  it('model move sends PUT with the destination workspace', async () => {
    const reply = await h.commandAndReply(
      `model move ${S.models.temperatureAnomaly} to ${S.workspaces.sandbox}`,
    );
    const reqs = await requestsOf();
    expect(reqs).toEqual([
      {
        method: 'PUT',
        path: `/api/1.3/accounts/${ACC}/models/${S.models.temperatureAnomaly}`,
        body: { workspace: S.workspaces.sandbox },
      },
    ]);
    expect(reply.ephemeralTo).toBeUndefined();
    expect(seen(reply)).toContain('moved a model');
    expect(seen(reply)).toContain(`\`${S.workspaces.sandbox}\``);
    // put it back for the other tests
    await h.service.moveModel(S.models.temperatureAnomaly, W);
  });

  it('model common looks up M[0] (ephemeral), and says when there is none', async () => {
    const reply = await h.commandAndReply(`model common ${S.assessments.temperature}`);
    const [req] = await h.serviceRequests();
    expect(req!.method).toBe('GET');
    expect(req!.path).toBe(`/api/1.2/accounts/${ACC}/models`);
    expect(req!.query).toMatchObject({
      assessment: S.assessments.temperature,
      isCommonModel: 'true',
      limit: '1',
    });
    expect(reply.ephemeralTo).toBe('U0ALICE');
    expect(seen(reply)).toContain(S.models.temperatureCommon);
    const none = await h.commandAndReply(`model common ${S.assessments.vibration}`);
    expect(seen(none)).toContain('has no common model (M[0])');
  });

  it('eval looks up M[0] and creates the EVAL flow with ns times in the user zone', async () => {
    const { reply, requests, last } = await flowCommand(
      `eval ${S.assessments.temperature} model=${S.models.temperatureAnomaly} datastream=${S.datastream} entities=pump-1,pump-2 range=yesterday 9am to 5pm`,
      'U0BOB', // Asia/Kolkata: 09:00 IST = 03:30 UTC
    );
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /api/1.2/accounts/${ACC}/models`,
      `POST /api/1.2/accounts/${ACC}/flows`,
    ]);
    expect(last.body).toEqual({
      flowType: 'EVAL',
      name: 'eval by @bob 2026-11-22 10:00Z',
      datastream: S.datastream,
      assessment: S.assessments.temperature,
      model: S.models.temperatureAnomaly,
      spec: {
        commonModelId: S.models.temperatureCommon,
        segments: [
          {
            entities: ['pump-1', 'pump-2'],
            timeRange: { startTime: ns('2026-11-21T03:30:00Z'), endTime: ns('2026-11-21T11:30:00Z') },
          },
        ],
        forLive: true,
        withEpisodes: true,
      },
    });
    expect(reply.ephemeralTo).toBeUndefined();
    const s = seen(reply);
    expect(s).toContain('<@U0BOB> started an EVAL flow');
    expect(s).toContain('CREATED');
    expect(s).toContain('Sat 21 Nov 09:00 – 17:00 IST (03:30–11:30 UTC)');
  });

  it('learn creates ANOMALYLEARN with an inline dataspec (ISO times, labels)', async () => {
    const { reply, last } = await flowCommand(
      `learn workspace=${W} signals=${T}:temperature,${P} range="2026-11-20 08:00 to 2026-11-20 20:00; 2026-11-21 08:00 to 2026-11-21 20:00" model-name="pump A model"`,
    );
    expect(last.method).toBe('POST');
    expect(last.path).toBe(`/api/1.3/accounts/${ACC}/flows`);
    const name = 'learn by @alice 2026-11-22 10:00Z';
    expect(last.body).toEqual({
      flowType: 'ANOMALYLEARN',
      name,
      spec: {
        workspace: W,
        modelName: 'pump A model',
        dataspec: {
          name,
          specs: [
            {
              timeRanges: [
                { startTime: '2026-11-20T08:00:00Z', endTime: '2026-11-20T20:00:00Z' },
                { startTime: '2026-11-21T08:00:00Z', endTime: '2026-11-21T20:00:00Z' },
              ],
              signals: [
                { signal: T, name: 'temperature' },
                { signal: P, name: P },
              ],
            },
          ],
        },
      },
    });
    expectChannelPost(reply, 'ANOMALYLEARN');
    expect(seen(reply)).toContain('Fri 20 Nov 08:00 – 20:00 GMT');
  });

  it('learn with a dataspec ID reuses it', async () => {
    const { last } = await flowCommand(
      `learn workspace=${W} dataspec=${S.dataspec} name="retrain" description="same data"`,
    );
    expect(last.body).toEqual({
      flowType: 'ANOMALYLEARN',
      name: 'retrain',
      description: 'same data',
      spec: { workspace: W, dataspec: { id: S.dataspec } },
    });
  });

  it('relearn sends spec.model (incremental learning)', async () => {
    const { reply, last } = await flowCommand(
      `relearn ${S.models.temperatureAnomaly} workspace=${W} signals=${T} range="Nov 21 08:00 to Nov 21 12:00"`,
    );
    expect(last.body).toEqual({
      flowType: 'ANOMALYLEARN',
      name: 'relearn by @alice 2026-11-22 10:00Z',
      spec: {
        model: S.models.temperatureAnomaly,
        workspace: W,
        dataspec: {
          name: 'relearn by @alice 2026-11-22 10:00Z',
          specs: [
            {
              timeRanges: [{ startTime: '2026-11-21T08:00:00Z', endTime: '2026-11-21T12:00:00Z' }],
              signals: [{ signal: T, name: T }],
            },
          ],
        },
      },
    });
    expectChannelPost(reply, 'ANOMALYLEARN');
  });

  it('score with a prefix and with mapped outputs creates ANOMALYEVAL', async () => {
    const a = await flowCommand(
      `score ${S.models.temperatureAnomaly} workspace=${W} dataspec=${S.dataspec} prefix=pumpA-scores`,
    );
    expect(a.last.body).toEqual({
      flowType: 'ANOMALYEVAL',
      name: 'score by @alice 2026-11-22 10:00Z',
      spec: {
        model: S.models.temperatureAnomaly,
        workspace: W,
        dataspec: { id: S.dataspec },
        outputsignalPrefix: 'pumpA-scores',
      },
    });
    expectChannelPost(a.reply, 'ANOMALYEVAL');
    const b = await flowCommand(
      `score ${S.models.temperatureAnomaly} workspace=${W} dataspec=${S.dataspec} outputs=${S.signals.anomalyScore}:anomaly_score`,
    );
    expect(b.last.body).toMatchObject({
      flowType: 'ANOMALYEVAL',
      spec: { outputsignals: [{ signal: S.signals.anomalyScore, name: 'anomaly_score' }] },
    });
    expect((b.last.body as { spec: object }).spec).not.toHaveProperty('outputsignalPrefix');
  });

  it('flow shows the status; an unsupported read falls back to the Activity view', async () => {
    const { reply: created } = await flowCommand(`learn workspace=${W} dataspec=${S.dataspec}`);
    const flowId = /Flow ID\*\\n`(\d+)`/.exec(seen(created))![1]!;
    await h.clearServiceRequests();
    const status = await h.commandAndReply(`flow ${flowId}`);
    expect(status.ephemeralTo).toBe('U0ALICE');
    expect(seen(status)).toContain('CREATED');
    expect((await h.serviceRequests()).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /api/1.3/accounts/${ACC}/flows/${flowId}`,
    ]);
    const finished = await fetch(`${h.emulator.url}/_emulator/flows/${flowId}/finish`, { method: 'POST' });
    expect(finished.status).toBe(200);
    const done = await h.commandAndReply(`flow ${flowId}`);
    expect(seen(done)).toContain('*Status*\\nCOMPLETED');
    await h.addFault({ method: 'GET', path: '/flows/', status: 405, message: 'Method Not Allowed' });
    const fallback = await h.commandAndReply(`flow ${flowId}`);
    expect(seen(fallback)).toContain('Activity view');
  });

  it('live start/stop with no approvers configured says so, files nothing and calls nothing', async () => {
    const reply = await h.commandAndReply(`live start ${S.models.pressureCommon}`);
    expect(reply.ephemeralTo).toBe('U0ALICE');
    expect(seen(reply)).toContain('No approvers are configured (TSAI_APPROVERS)');
    expect(seen(reply)).toContain('Nothing was started');
    expect(await h.store.listApprovals()).toEqual([]);
    const stop = await h.commandAndReply(`live stop assessment=${S.assessments.temperature}`);
    expect(seen(stop)).toContain('Nothing was stopped');
    expect(await h.askedOfService()).toEqual([]);
  });
});

describe('bad input never reaches the service', () => {
  const E = S.assessments.temperature;
  it.each([
    ['frobnicate', /is not a command/],
    ['workspace show 12345', /`12345` is not a valid workspace ID/],
    // A word that cannot be an ID is a name, which the bot does not know: refused with what it knows.
    ['workspace show abc', /No workspace named "abc" is known/],
    ['workspace', /needs a subcommand/],
    ['model move 1 2', /not a valid model ID/],
    [
      `eval ${E} model=${S.models.temperatureAnomaly} datastream=${S.datastream} entities=pump-1 range="tomorrow 9am to 5pm"`,
      /ends in the future/,
    ],
    [
      `eval ${E} model=${S.models.temperatureAnomaly} datastream=${S.datastream} entities=pump-1 range="blah blah"`,
      /could not read/,
    ],
    [`learn workspace=${W} signals=12 range=yesterday`, /`12` in `signals=` is not a valid signal ID/],
    [`learn workspace=${W} signals=abc range=yesterday`, /No signal named "abc" is known/],
    [
      `learn workspace=${W} signals=${T} range="2026-11-21 10:00 to 2026-11-21 09:00"`,
      /is not after the start/,
    ],
    [`learn workspace=${W} signals=${T} range="yesterday; yesterday 9am to 5pm"`, /overlap/],
    [
      `score ${S.models.temperatureAnomaly} workspace=${W} dataspec=${S.dataspec} prefix=a outputs=${T}`,
      /not both/,
    ],
    // `learn` / `relearn <model>` with arguments missing open their modal: test/e2e/modals.test.ts.
    [`workspace create x colour=red`, /`colour=` is not an option/],
    [`workspace create name="unclosed`, /not closed/],
  ])('%s', async (text, pattern) => {
    const reply = await h.commandAndReply(text);
    expect(reply.ephemeralTo).toBe('U0ALICE');
    const s = seen(reply);
    expect(s).toMatch(pattern);
    expect(s).toContain('You typed:');
    expect(s).toMatch(/Example:|Usage:/);
    expect(await h.askedOfService()).toEqual([]);
  });
});

describe('request signing', () => {
  const body = () =>
    new URLSearchParams({
      command: '/tsai',
      text: `workspace create forged`,
      user_id: 'U0ALICE',
      channel_id: 'C0OPS',
      team_id: 'T0',
      response_url: `${h.slack.url}/nowhere`,
      trigger_id: 'x',
    }).toString();

  it('rejects a forged signature, a stale timestamp and a missing signature with 401', async () => {
    const forged = await h.slack.signedPost('/slack/events', body(), { signature: `v0=${'0'.repeat(64)}` });
    expect(forged.status).toBe(401);
    const stale = await h.slack.signedPost('/slack/events', body(), {
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect(stale.status).toBe(401);
    const missing = await h.slack.signedPost('/slack/events', body(), { signature: null });
    expect(missing.status).toBe(401);
    const noTimestamp = await h.slack.signedPost('/slack/events', body(), { timestamp: null });
    expect(noTimestamp.status).toBe(401);
    expect(await h.askedOfService()).toEqual([]);
  });
});

describe('mrkdwn injection', () => {
  it('shows a hostile workspace name literally, in the create reply and in show', async () => {
    const evil = '<!channel> *bold* <http://evil|click>';
    const reply = await h.commandAndReply(`workspace create "${evil}"`);
    const [req] = await h.serviceRequests();
    expect(req!.body).toEqual({ name: evil });
    const id = /Workspace ID\*\\n`(\d+)`/.exec(seen(reply))![1]!;
    const show = await h.commandAndReply(`workspace show ${id}`);
    for (const m of [reply, show]) {
      const s = seen(m);
      expect(s).toContain('&lt;!channel&gt; *bold* &lt;http://evil|click&gt;');
      expect(s).not.toContain('<!channel>');
      expect(s).not.toContain('<http://evil');
    }
  });

  it('echoes the typed command once escaped, not twice (Slack sends & < > as entities)', async () => {
    const reply = await h.commandAndReply('workspace create "R&D <b>"');
    const [req] = await h.serviceRequests();
    expect(req!.body).toEqual({ name: 'R&D <b>' });
    const s = seen(reply);
    expect(s).toContain('/tsai workspace create \\"R&amp;D &lt;b&gt;\\"');
    expect(s).not.toContain('&amp;amp;');
    expect(s).not.toContain('&amp;lt;');
  });
});

describe('service failures become clear messages', () => {
  it.each([
    [{ status: 401, message: 'token expired' }, /access token/],
    [
      { status: 403, message: 'role User cannot create workspaces' },
      /lacks permission.*role User cannot create workspaces/,
    ],
    [{ status: 500, message: 'boom' }, /failed to handle the request \(HTTP 500\)/],
    [
      { reset: 'after' as const },
      /Not sure whether the service managed to create the workspace.*Activity view/,
    ],
  ])('%j', async (fault, pattern) => {
    await h.addFault({ method: 'POST', path: '/workspace$', ...fault });
    const reply = await h.commandAndReply('workspace create failing');
    expect(reply.ephemeralTo).toBe('U0ALICE');
    expect(seen(reply)).toMatch(pattern);
    expect(seen(reply)).toContain('You typed:');
  });

  it('404 and timeout on a lookup', async () => {
    const missing = await h.commandAndReply('workspace show 1999999999999999999');
    expect(seen(missing)).toMatch(/could not find/i);
    await h.addFault({ method: 'GET', path: '/workspace/', latencyMs: 4000 });
    const slow = await h.commandAndReply(`workspace show ${W}`);
    expect(seen(slow)).toMatch(/did not answer within/);
  });

  it('never puts a secret in a reply or a log line', async () => {
    const all = h.slack
      .snapshot()
      .channels.flatMap((c) => c.messages.map((m) => `${m.text}${JSON.stringify(m.blocks)}`));
    for (const secret of [BOT_TOKEN, SIGNING_SECRET, h.emulator.token]) {
      expect(all.join('\n')).not.toContain(secret);
      expect(h.logs.join('\n')).not.toContain(secret);
    }
  });
});

describe('user zones', () => {
  it('reads the zone with users.info once per user (cached), and uses it', async () => {
    const before = h.slack.calls.filter((c) => c.method === 'users.info' && c.args.user === 'U0CAROL').length;
    expect(before).toBe(0);
    const range = 'range="yesterday 9am to 5pm"';
    const cmd = `eval ${S.assessments.temperature} model=${S.models.temperatureAnomaly} datastream=${S.datastream} entities=pump-1 ${range}`;
    const first = await h.commandAndReply(cmd, { user: 'U0CAROL' }); // America/New_York, EST in November
    await h.commandAndReply(cmd, { user: 'U0CAROL' });
    expect(h.slack.calls.filter((c) => c.method === 'users.info' && c.args.user === 'U0CAROL')).toHaveLength(
      1,
    );
    expect(seen(first)).toContain('Sat 21 Nov 09:00 – 17:00 EST (14:00–22:00 UTC)');
  });

  it('calls only Web API methods listed in scopes.ts', async () => {
    const { WEB_API_METHODS } = await import('../../src/slack/scopes.js');
    for (const c of h.slack.calls) expect(Object.keys(WEB_API_METHODS)).toContain(c.method);
  });
});

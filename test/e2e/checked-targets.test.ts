import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED } from '../../standins/emulator/index.js';
import { DEFAULT_CHANNELS } from '../../standins/localslack/index.js';
import { buttonsOf, textOf } from '../support/approvals-rig.js';
import { emulatorControl, eventually } from '../support/emulator.js';
import { stackForThisSuite } from '../support/fixtures/stack.js';
import type { Harness } from '../support/harness.js';

const OPS = 'C0OPS';
const PRIVATE = 'C0PRIVATE';

let h: Harness;
stackForThisSuite(
  (x) => {
    h = x;
  },
  {
    env: { TSAI_APPROVERS: 'U0BOB', TSAI_TRACK_FIRST_POLL: '100ms', TSAI_TRACK_MAX_INTERVAL: '300ms' },
    channels: [...DEFAULT_CHANNELS, { id: PRIVATE, name: 'private-ops', isPrivate: true, botMember: false }],
    // Flows end only when a test finishes them.
    flowDelays: { runningAfterMs: 100, completedAfterMs: 600_000 },
  },
);

/** Somewhere else on the network, counting what is posted to it. */
let elsewhere: Server;
let elsewhereUrl: string;
const posted: string[] = [];
beforeAll(async () => {
  elsewhere = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      posted.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((ok) => elsewhere.listen(0, '127.0.0.1', ok));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/collect`;
});
afterAll(async () => {
  await new Promise<void>((ok) => elsewhere?.close(() => ok()));
});

describe("a decision is taken only from the request's own Slack workspace", () => {
  it("a click from another team on a request's card decides nothing", async () => {
    await h.slack.sendCommand({
      user: 'U0ALICE',
      channel: OPS,
      text: `live start ${SEED.models.pressureCommon} reason="team check"`,
    });
    const card = await h.slack.waitFor(
      () =>
        h.slack
          .messages(OPS)
          .find((m) => buttonsOf(m).includes('approval_approve') && textOf(m).includes('team check')),
      10_000,
      'the card',
    );
    await h.clearServiceRequests();
    await h.slack.clickButton({
      user: 'U0BOB',
      channel: OPS,
      messageTs: card.ts,
      actionId: 'approval_approve',
      teamId: 'T0OTHER',
    });
    const told = await h.slack.waitFor(
      () => h.slack.messages(OPS, { user: 'U0BOB' }).find((m) => /not known to this bot/.test(textOf(m))),
      10_000,
      'the answer to the foreign click',
    );
    expect(textOf(told)).toContain('nothing changed');
    const request = (await h.store.listApprovals({ limit: 10 })).find((r) => r.reason === 'team check');
    expect(request?.status).toBe('pending');
    expect((await h.serviceRequests()).filter((r) => r.method === 'POST')).toEqual([]);
  });
});

describe('a response URL read back from the store is posted to only when it is Slack’s', () => {
  it("a flow's announcement URL replaced in the store gets nothing; the requester is told another way", async () => {
    await h.slack.sendCommand({
      user: 'U0ALICE',
      channel: PRIVATE,
      text: `learn workspace=${SEED.workspaces.pumpStation} signals=${SEED.signals.temperature} range="2026-11-20 to 2026-11-21" name=elsewhere-one`,
    });
    const flow = await eventually(async () => {
      const f = (await h.store.listTrackedFlows({ limit: 20 })).find(
        (x) => x.announcement?.kind === 'response-url',
      );
      return f ?? undefined;
    });
    // Someone with the database file points the announcement elsewhere.
    const db = new Database(h.databaseUrl);
    try {
      const a = { ...(flow.announcement as { kind: 'response-url'; url: string }), url: elsewhereUrl };
      db.prepare('UPDATE tracked_flows SET announcement = ? WHERE flow_id = ?').run(
        JSON.stringify(a),
        flow.flowId,
      );
    } finally {
      db.close();
    }
    await emulatorControl(h.emulator.url)('POST', `flows/${flow.flowId}/finish`, { status: 'COMPLETED' });
    await h.slack.waitFor(
      () =>
        [...h.slack.state.channels.values()]
          .filter((c) => c.isIm)
          .flatMap((c) => c.messages)
          .find((m) => /completed after/.test(m.text) && m.text.includes('<@U0ALICE>')),
      15_000,
      'the end told to alice another way',
    );
    expect(posted).toEqual([]);
  });
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEAM_ID } from '../../standins/localslack/index.js';
import { OPS, REQUESTER, type Rig, startRig } from '../support/approvals-rig.js';
import { type BotProcess, prepareBotProgram, startBotProcess } from '../support/bot-process.js';
import { waitUntil } from '../support/patience.js';

const SEEN_BEFORE = 'a Slack request seen before (a retry or a replay); acknowledged, nothing done';

// On SQLite the replay marks are held by the process and written behind (src/slack/http/seen-marks.ts):
// a bot stopped and started again on the same file must still refuse a request it acted on before.
let rig: Rig;
let program: Awaited<ReturnType<typeof prepareBotProgram>>;
const procs: BotProcess[] = [];
beforeAll(async () => {
  program = await prepareBotProgram();
  rig = await startRig();
});
afterAll(async () => {
  for (const p of procs) await p.stop();
  await rig?.close();
  await program?.cleanup();
});

async function startBot(): Promise<BotProcess> {
  const proc = await startBotProcess(program.dir, { ...rig.env(), LOG_LEVEL: 'info' });
  procs.push(proc);
  rig.addBackend(proc.port);
  return proc;
}

it('a command replayed after the bot was stopped and started again on its SQLite file is not acted on again', async () => {
  const name = 'replayed-after-restart';
  const body = new URLSearchParams({
    token: 'local-verification-token',
    team_id: TEAM_ID,
    channel_id: OPS,
    user_id: REQUESTER,
    user_name: 'requester',
    command: '/tsai',
    text: `workspace create ${name}`,
    api_app_id: rig.slack.appId,
    response_url: `${rig.slack.url}/response/${rig.slack.state.issueResponseUrl({ user: REQUESTER, channel: OPS })}`,
    trigger_id: rig.slack.state.issueTrigger(REQUESTER),
  }).toString();
  const timestamp = Math.floor(Date.now() / 1000);
  const created = async () =>
    (await rig.serviceRequests()).filter(
      (r) => r.method === 'POST' && (r.body as { name?: string } | undefined)?.name === name,
    ).length;

  const first = await startBot();
  expect((await rig.slack.signedPost('/slack/events', body, { timestamp })).status).toBe(200);
  await waitUntil(async () => {
    if ((await created()) < 1) throw new Error('the workspace is not created yet');
  });
  // Stopped at once, well within the 5 s between two writes of the marks: only the stop writes this one.
  rig.removeBackend(first.port);
  await first.stop();

  const second = await startBot();
  const replay = await rig.slack.signedPost('/slack/events', body, { timestamp });
  expect(replay).toMatchObject({ status: 200, body: '' });
  await waitUntil(() => {
    if (!second.output().includes(SEEN_BEFORE)) throw new Error('the replay is not logged as seen yet');
  });
  expect(await created()).toBe(1);
});

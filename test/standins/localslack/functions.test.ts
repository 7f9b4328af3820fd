import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySlackRequest } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  EXECUTION_TOKEN_TTL_MS,
  type FunctionDefinition,
  type LocalSlack,
  startLocalSlack,
} from '../../../standins/localslack/index.js';
import { patient } from '../../support/patience.js';

const SECRET = 'local-signing-secret-fn';
const TOKEN = 'xoxb-local-fn-token';

const STEP: FunctionDefinition = {
  title: 'Learn',
  input_parameters: {
    properties: { run_as: { type: 'slack#/types/user_context' }, workspace: { type: 'string' } },
    required: ['run_as', 'workspace'],
  },
  output_parameters: {
    properties: { flow_id: { type: 'string' }, live: { type: 'boolean' } },
    required: ['flow_id'],
  },
};

let slack: LocalSlack;
let bot: Server;
let now = Date.UTC(2026, 10, 22, 10);
const received: { body: Record<string, unknown>; signed: boolean }[] = [];

beforeAll(async () => {
  bot = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let signed = true;
      try {
        verifySlackRequest({
          signingSecret: SECRET,
          body: raw,
          headers: {
            'x-slack-signature': String(req.headers['x-slack-signature']),
            'x-slack-request-timestamp': Number(req.headers['x-slack-request-timestamp']),
          },
        });
      } catch {
        signed = false;
      }
      received.push({ body: JSON.parse(raw) as Record<string, unknown>, signed });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((ok) => bot.listen(0, '127.0.0.1', ok));
  slack = patient(
    await startLocalSlack({
      signingSecret: SECRET,
      botToken: TOKEN,
      now: () => now,
      functions: { tsai_learn: STEP },
      botEndpoint: `http://127.0.0.1:${(bot.address() as AddressInfo).port}/slack/events`,
    }),
  );
});
afterAll(async () => {
  await slack?.close();
  await new Promise<void>((ok) => bot.close(() => ok()));
});
beforeEach(() => {
  received.length = 0;
});

async function api(method: string, token: string, args: Record<string, unknown>) {
  const r = await fetch(`${slack.apiUrl}${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });
  return (await r.json()) as Record<string, unknown>;
}

describe('local Slack: Workflow Builder steps', () => {
  it('delivers function_executed signed, in the Events API shape, with the runner as user_context', async () => {
    const ex = await slack.runFunction({
      callbackId: 'tsai_learn',
      user: 'U0ALICE',
      inputs: { workspace: '1' },
    });
    expect(received).toHaveLength(1);
    const { body, signed } = received[0]!;
    expect(signed).toBe(true);
    expect(body).toMatchObject({ type: 'event_callback', team_id: slack.teamId, api_app_id: slack.appId });
    expect(body.event).toMatchObject({
      type: 'function_executed',
      function: { callback_id: 'tsai_learn', title: 'Learn', type: 'app' },
      inputs: { workspace: '1', run_as: { id: 'U0ALICE' } },
      function_execution_id: ex.id,
      workflow_execution_id: ex.workflowExecutionId,
      bot_access_token: ex.token,
    });
  });

  it('checks outputs against the manifest, completes once, and answers a second completion as Slack does', async () => {
    const ex = await slack.runFunction({
      callbackId: 'tsai_learn',
      user: 'U0ALICE',
      inputs: { workspace: '1' },
    });
    const complete = (outputs: unknown) =>
      api('functions.completeSuccess', TOKEN, { function_execution_id: ex.id, outputs });
    expect(await complete({ live: true })).toMatchObject({ ok: false, error: 'parameter_validation_failed' });
    expect(await complete({ flow_id: 1 })).toMatchObject({ ok: false, error: 'parameter_validation_failed' });
    expect(await complete({ flow_id: '1', extra: 'x' })).toMatchObject({
      error: 'parameter_validation_failed',
    });
    expect(await complete({ flow_id: '14', live: false })).toEqual({ ok: true });
    expect(slack.execution(ex.id)).toMatchObject({
      state: 'completed',
      outputs: { flow_id: '14', live: false },
    });
    expect(await complete({ flow_id: '15' })).toEqual({ ok: false, error: 'execution_not_in_running_state' });
    expect(
      await api('functions.completeError', TOKEN, { function_execution_id: ex.id, error: 'no' }),
    ).toEqual({
      ok: false,
      error: 'execution_not_in_running_state',
    });
    expect(
      await api('functions.completeError', TOKEN, { function_execution_id: 'Fx0NONE', error: 'no' }),
    ).toEqual({
      ok: false,
      error: 'function_execution_not_found',
    });
  });

  it('expires an execution token 15 minutes after it was issued, or once its step completed', async () => {
    const a = await slack.runFunction({
      callbackId: 'tsai_learn',
      user: 'U0ALICE',
      inputs: { workspace: '1' },
    });
    const b = await slack.runFunction({
      callbackId: 'tsai_learn',
      user: 'U0ALICE',
      inputs: { workspace: '1' },
    });
    expect(await api('auth.test', a.token, {})).toMatchObject({ ok: true });
    expect(
      await api('functions.completeError', b.token, { function_execution_id: b.id, error: 'Bad input.' }),
    ).toEqual({
      ok: true,
    });
    expect(slack.execution(b.id)).toMatchObject({ state: 'failed', error: 'Bad input.' });
    expect(await api('auth.test', b.token, {})).toEqual({ ok: false, error: 'token_expired' });
    now += EXECUTION_TOKEN_TTL_MS;
    expect(await api('auth.test', a.token, {})).toEqual({ ok: false, error: 'token_expired' });
    // The app's own token still completes it.
    expect(
      await api('functions.completeSuccess', TOKEN, {
        function_execution_id: a.id,
        outputs: { flow_id: '9' },
      }),
    ).toEqual({ ok: true });
  });

  it('runs a workflow: each step starts when the one before completes, with its outputs as inputs', async () => {
    const run = await slack.runWorkflow({
      user: 'U0BOB',
      workflow: {
        steps: [
          { callbackId: 'tsai_learn', inputs: { workspace: '7' } },
          { callbackId: 'tsai_learn', inputs: { workspace: { fromStep: 0, output: 'flow_id' } } },
        ],
      },
    });
    const first = slack.execution(run.executions[0]!)!;
    await api('functions.completeSuccess', TOKEN, {
      function_execution_id: first.id,
      outputs: { flow_id: '42' },
    });
    const second = await slack.waitFor(
      (s) => s.workflow(run.id)?.executions[1],
      undefined,
      'the second step',
    );
    expect(slack.execution(second)!.inputs).toMatchObject({ workspace: '42' });
    await api('functions.completeError', TOKEN, { function_execution_id: second, error: 'It failed.' });
    const ended = await slack.waitFor((s) =>
      s.workflow(run.id)?.state === 'failed' ? s.workflow(run.id) : undefined,
    );
    expect(ended?.error).toBe('It failed.');
  });
});

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, LogLevel } from '@slack/bolt';

/** A bare Bolt 5 app in HTTP mode with a few listeners, standing in for the real bot. */
export interface TestBot {
  app: App;
  endpoint: string;
  /** Resolved by the test to let the `slow-modal` command call views.open late. */
  releaseSlowModal(): void;
  /** Errors and statuses the listeners observed. */
  seen: { viewsOpenError?: string; respondStatuses: (number | string)[] };
  stop(): Promise<void>;
}

export const SECRET = 'local-signing-secret-123';
export const TOKEN = 'xoxb-local-test-token-123';

const rangeModal = (callbackId: string) => ({
  type: 'modal' as const,
  callback_id: callbackId,
  title: { type: 'plain_text' as const, text: 'Pick a range' },
  submit: { type: 'plain_text' as const, text: 'Run' },
  blocks: [
    {
      type: 'input' as const,
      block_id: 'range_block',
      label: { type: 'plain_text' as const, text: 'Time range' },
      element: { type: 'plain_text_input' as const, action_id: 'range' },
    },
    {
      type: 'input' as const,
      block_id: 'kind_block',
      optional: true,
      label: { type: 'plain_text' as const, text: 'Kind' },
      element: {
        type: 'static_select' as const,
        action_id: 'kind',
        options: [
          { text: { type: 'plain_text' as const, text: 'Learn' }, value: 'learn' },
          { text: { type: 'plain_text' as const, text: 'Score' }, value: 'score' },
        ],
      },
    },
    {
      type: 'actions' as const,
      block_id: 'tools',
      elements: [
        {
          type: 'button' as const,
          action_id: 'add_note',
          text: { type: 'plain_text' as const, text: 'Add note' },
        },
      ],
    },
  ],
});

export async function startTestBot(slackApiUrl: string): Promise<TestBot> {
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const seen: TestBot['seen'] = { respondStatuses: [] };
  const app = new App({
    token: TOKEN,
    signingSecret: SECRET,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true },
  });

  app.command('/tsai', async ({ command, ack, respond, client }) => {
    await ack();
    const sub = command.text.trim();
    if (sub === 'noop') return;
    if (sub === 'hello') {
      await client.chat.postMessage({
        channel: command.channel_id,
        text: `hello from the bot to <@${command.user_id}>`,
      });
      await respond({ response_type: 'ephemeral', text: 'only you can see this' });
    } else if (sub === 'modal') {
      await client.views.open({ trigger_id: command.trigger_id, view: rangeModal('range_modal') });
    } else if (sub === 'slow-modal') {
      await gate;
      try {
        await client.views.open({ trigger_id: command.trigger_id, view: rangeModal('range_modal') });
      } catch (err) {
        seen.viewsOpenError = (err as { data?: { error?: string } }).data?.error ?? String(err);
      }
    } else if (sub === 'button') {
      await respond({
        response_type: 'in_channel',
        text: 'Approval needed',
        blocks: [
          { type: 'section', text: { type: 'mrkdwn', text: 'Start live model *m-1*?' } },
          {
            type: 'actions',
            block_id: 'approval',
            elements: [
              {
                type: 'button',
                action_id: 'approve',
                text: { type: 'plain_text', text: 'Approve' },
                value: 'req-1',
              },
            ],
          },
        ],
      });
    } else if (sub === 'respond-many') {
      for (let i = 0; i < 6; i++) {
        try {
          const r = await respond({ text: `reply ${i + 1}` });
          seen.respondStatuses.push(r.status);
        } catch (err) {
          seen.respondStatuses.push((err as { statusCode?: number }).statusCode ?? String(err));
        }
      }
    } else {
      await respond({ text: `unknown: ${sub}` });
    }
  });

  app.view('range_modal', async ({ ack, view, body, client }) => {
    const range = view.state.values.range_block?.range?.value ?? '';
    if (range === 'bad') {
      await ack({
        response_action: 'errors',
        errors: { range_block: 'Could not read "bad" as a time range' },
      });
      return;
    }
    await ack();
    const kind = view.state.values.kind_block?.kind?.selected_option?.value ?? 'none';
    await client.chat.postMessage({
      channel: 'C0GENERAL',
      text: `range ${range} kind ${kind} by ${body.user.id}`,
    });
  });

  app.action('approve', async ({ ack, body, client }) => {
    await ack();
    if (body.type !== 'block_actions' || !body.channel || !body.message) return;
    const value = body.actions[0]?.type === 'button' ? body.actions[0].value : '';
    await client.chat.update({
      channel: body.channel.id,
      ts: body.message.ts,
      text: `Approved ${value} by <@${body.user.id}>`,
      blocks: [],
    });
  });

  app.action('add_note', async ({ ack, body, client }) => {
    await ack();
    if (body.type !== 'block_actions' || !body.view) return;
    const base = rangeModal('range_modal');
    const note = {
      type: 'input' as const,
      block_id: 'note_block',
      optional: true,
      label: { type: 'plain_text' as const, text: 'Note' },
      element: { type: 'plain_text_input' as const, action_id: 'note', multiline: true },
    };
    await client.views.update({
      view_id: body.view.id,
      hash: body.view.hash,
      view: { ...base, blocks: [...base.blocks.slice(0, 2), note] },
    });
  });

  const server = (await app.start({ port: 0, host: '127.0.0.1' })) as Server;
  const { port } = server.address() as AddressInfo;
  return {
    app,
    endpoint: `http://127.0.0.1:${port}/slack/events`,
    releaseSlowModal: () => release(),
    seen,
    stop: () => app.stop() as Promise<void>,
  };
}

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, LogLevel } from '@slack/bolt';

/** A bare Bolt 5 app in HTTP mode with a few listeners, standing in for the real bot. */
export interface TestBot {
  app: App;
  endpoint: string;
  /** Resolved by the test to let the `slow-modal` command call views.open late. */
  releaseSlowModal(): void;
  /** Errors, statuses and payloads the listeners observed. */
  seen: {
    viewsOpenError?: string;
    respondStatuses: (number | string)[];
    homeOpened: Record<string, unknown>[];
    homeActions: Record<string, unknown>[];
    suggestions: Record<string, unknown>[];
    selectActions: Record<string, unknown>[];
    publishErrors: string[];
  };
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

const pt = (text: string) => ({ type: 'plain_text' as const, text });
const option = (text: string, value: string) => ({ text: pt(text), value });

/** The catalogue the `asset` options listener searches. */
export const ASSETS = [
  option('Pump 1', 'pump-1'),
  option('Pump 2', 'pump-2'),
  option('Pump 3', 'pump-3'),
  option('Valve 9', 'valve-9'),
];

const assetsModal = () => ({
  type: 'modal' as const,
  callback_id: 'assets_modal',
  title: pt('Assets'),
  submit: pt('Save'),
  blocks: [
    {
      type: 'input' as const,
      block_id: 'asset_block',
      label: pt('Asset'),
      element: {
        type: 'external_select' as const,
        action_id: 'asset',
        min_query_length: 2,
        initial_option: ASSETS[0],
      },
    },
    {
      type: 'input' as const,
      block_id: 'more_block',
      optional: true,
      label: pt('More assets'),
      element: {
        type: 'multi_external_select' as const,
        action_id: 'more',
        min_query_length: 0,
        max_selected_items: 3,
        initial_options: [ASSETS[3]!],
      },
    },
    {
      type: 'actions' as const,
      block_id: 'tools',
      elements: [{ type: 'external_select' as const, action_id: 'jump', min_query_length: 1 }],
    },
  ],
});

/** App Home: how often the user opened it, a refresh button and a type-ahead select that dispatches. */
const homeView = (visits: number) => ({
  type: 'home' as const,
  callback_id: 'home',
  blocks: [
    {
      type: 'section' as const,
      block_id: 'visits',
      text: { type: 'mrkdwn' as const, text: `Home opened ${visits} time(s)` },
    },
    {
      type: 'actions' as const,
      block_id: 'home_tools',
      elements: [
        { type: 'button' as const, action_id: 'home_refresh', text: pt('Refresh'), value: 'refresh' },
        { type: 'external_select' as const, action_id: 'jump', min_query_length: 1, placeholder: pt('Find') },
      ],
    },
  ],
});

export async function startTestBot(slackApiUrl: string): Promise<TestBot> {
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const seen: TestBot['seen'] = {
    respondStatuses: [],
    homeOpened: [],
    homeActions: [],
    suggestions: [],
    selectActions: [],
    publishErrors: [],
  };
  const visits = new Map<string, number>();
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
    } else if (sub === 'assets') {
      await client.views.open({ trigger_id: command.trigger_id, view: assetsModal() });
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

  app.view('assets_modal', async ({ ack, view, body, client }) => {
    await ack();
    const v = view.state.values;
    const one = v.asset_block?.asset?.selected_option;
    const more = v.more_block?.more?.selected_options ?? [];
    await client.chat.postMessage({
      channel: 'C0GENERAL',
      text: `assets ${one?.text.text}=${one?.value} more ${more.map((o) => `${o.text.text}=${o.value}`).join(',')} by ${body.user.id}`,
    });
  });

  app.options<'block_suggestion'>({ type: 'block_suggestion' }, async ({ body, options, ack }) => {
    seen.suggestions.push(body as unknown as Record<string, unknown>);
    const q = options.value.toLowerCase();
    if (q === 'many')
      return ack({ options: Array.from({ length: 101 }, (_, i) => option(`Asset ${i}`, `a-${i}`)) });
    if (q === 'long') return ack({ options: [option('x'.repeat(76), 'long')] });
    if (q === 'grouped')
      return ack({
        option_groups: [
          { label: pt('Pumps'), options: ASSETS.slice(0, 2) },
          { label: pt('Valves'), options: ASSETS.slice(3) },
        ],
      });
    await ack({ options: ASSETS.filter((a) => a.text.text.toLowerCase().includes(q)) });
  });

  app.action('jump', async ({ ack, body }) => {
    await ack();
    seen.selectActions.push(body as unknown as Record<string, unknown>);
  });

  app.event('app_home_opened', async ({ event, client }) => {
    seen.homeOpened.push(event as unknown as Record<string, unknown>);
    if (event.tab !== 'home') return;
    const n = (visits.get(event.user) ?? 0) + 1;
    visits.set(event.user, n);
    // A Home opened before comes with the published view; its hash guards against a concurrent publish.
    const hash = (event.view as { hash?: string } | undefined)?.hash;
    try {
      await client.views.publish({ user_id: event.user, view: homeView(n), ...(hash ? { hash } : {}) });
    } catch (err) {
      seen.publishErrors.push((err as { data?: { error?: string } }).data?.error ?? String(err));
    }
  });

  app.action('home_refresh', async ({ ack, body, client }) => {
    await ack();
    seen.homeActions.push(body as unknown as Record<string, unknown>);
    if (body.type !== 'block_actions' || !body.view) return;
    const n = (visits.get(body.user.id) ?? 0) + 1;
    visits.set(body.user.id, n);
    try {
      await client.views.publish({ user_id: body.user.id, hash: body.view.hash, view: homeView(n) });
    } catch (err) {
      seen.publishErrors.push((err as { data?: { error?: string } }).data?.error ?? String(err));
    }
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

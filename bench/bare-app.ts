import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App } from '@slack/bolt';

/**
 * The baseline: a bare Bolt 5 app in HTTP mode with one `/tsai` listener and one `function_executed`
 * listener (Workflow Builder steps), both only acking, on `/slack/events` as Bolt serves it. Anything the
 * real bot costs beyond this is the bot's own work.
 */
export async function startBareBolt(o: {
  signingSecret: string;
  botToken: string;
  slackApiUrl?: string;
  port: number;
  host?: string;
}): Promise<{ url: string; stop(): Promise<void> }> {
  const app = new App({
    token: o.botToken,
    signingSecret: o.signingSecret,
    ...(o.slackApiUrl ? { clientOptions: { slackApiUrl: o.slackApiUrl } } : {}),
  });
  app.command('/tsai', async ({ ack }) => {
    await ack();
  });
  // Bolt leaves a function_executed event's ack to its listener, as the bot's own listener does.
  app.event('function_executed', async (args) => {
    await (args as { ack?: () => Promise<void> }).ack?.();
  });
  const server = (await app.start({ port: o.port, host: o.host ?? '127.0.0.1' })) as Server;
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, stop: () => app.stop() as Promise<void> };
}

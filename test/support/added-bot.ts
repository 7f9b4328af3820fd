import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeMeta } from '../../src/slack/forms/index.js';
import { type Harness, type HarnessOptions, startHarness } from './harness.js';

/** A request the stand is asked: its method, path and JSON body. */
export interface StandRequest {
  method: string;
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the JSON it is sent by path
  body: any;
}

/** What the stand answers a request it knows: a status and a JSON body (none: an empty one). */
export type StandAnswer = { status: number; body?: unknown } | undefined;

/**
 * The service as operations a test adds need it, on a port of its own: `answer` answers the requests it
 * knows, and every other request goes on to the service at `target.url` (the emulator), as sent.
 */
export async function startServiceStand(answer: (r: StandRequest) => StandAnswer | Promise<StandAnswer>) {
  const target = { url: '' };
  const read = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return text;
  };
  const server = createServer(async (req, res) => {
    const path = req.url ?? '';
    const text = await read(req);
    const own = await answer({
      method: req.method ?? 'GET',
      path,
      body: text ? JSON.parse(text) : undefined,
    });
    if (own) {
      res.writeHead(own.status, own.body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(own.body === undefined ? undefined : JSON.stringify(own.body));
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept'])
      if (typeof req.headers[name] === 'string') headers[name] = req.headers[name] as string;
    const passed = await fetch(`${target.url}${path}`, {
      method: req.method ?? 'GET',
      headers,
      ...(text ? { body: text } : {}),
    });
    res.writeHead(passed.status, {
      'content-type': passed.headers.get('content-type') ?? 'application/json',
    });
    res.end(await passed.text());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    target,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** The bot with operations a test adds, and the stand of the service that answers their calls. */
export interface AddedBot {
  h: Harness;
  close(): Promise<void>;
}

/**
 * The real bot with the operations of these modules (`BotSetup.operations`, registered on both threads),
 * its service the stand that answers what `answer` knows and hands the rest to the emulator.
 */
export async function startAddedBot(o: {
  operations: readonly string[];
  answer: (r: StandRequest) => StandAnswer | Promise<StandAnswer>;
  env?: Record<string, string>;
}): Promise<AddedBot> {
  const stand = await startServiceStand(o.answer);
  const options: HarnessOptions = {
    operations: o.operations,
    env: {
      TSAI_BASE_URL: stand.url,
      TSAI_TRACK_FIRST_POLL: '100ms',
      TSAI_TRACK_MAX_INTERVAL: '300ms',
      ...o.env,
    },
  };
  const h = await startHarness(options).catch(async (e: unknown) => {
    await stand.close();
    throw e;
  });
  stand.target.url = h.emulator.url;
  return {
    h,
    close: async () => {
      await h.close();
      await stand.close();
    },
  };
}

/** A person's top modal of this callback once the bot has updated it after opening (their zone known). */
export function formOpened(h: Harness, user: string, callbackId: string, notId: string | undefined) {
  return h.slack.waitFor(
    (s) => {
      const v = s.topView(user);
      if (!v || v.id === notId || v.view.callback_id !== callbackId) return undefined;
      return decodeMeta(v.view.private_metadata as string)?.timeZone ? v : undefined;
    },
    60_000,
    `modal ${callbackId}`,
  );
}

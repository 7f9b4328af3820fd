import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { immediateHelp } from '../../src/slack/command/listener.js';
import { httpAck } from '../../src/slack/http/ack.js';
import { frozen } from '../../src/slack/http/ack-body.js';

// A real server: each request is acked with the body the test queued for it.
const queued: unknown[] = [];
const server = createServer((_req, res: ServerResponse) => {
  void httpAck(res, createLogger({ level: 'silent' }))(queued.shift());
});
let base = '';
beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

async function ackedWith(body: unknown): Promise<{ type: string | null; text: string }> {
  queued.push(body);
  const res = await fetch(base, { method: 'POST' });
  return { type: res.headers.get('content-type'), text: await res.text() };
}

describe('the ack body', () => {
  it('answers a frozen body with its JSON, the same each time, non-ASCII text included', async () => {
    const body = frozen({
      response_type: 'ephemeral',
      text: 'Usage → `/tsai help` … “quoted”',
      blocks: [{ n: 1 }],
    });
    const first = await ackedWith(body);
    expect(first).toEqual({ type: 'application/json', text: JSON.stringify(body) });
    expect(await ackedWith(body)).toEqual(first);
  });

  it('serializes a body that is not frozen as it is when acked', async () => {
    const body = { text: 'one' };
    expect((await ackedWith(body)).text).toBe('{"text":"one"}');
    body.text = 'two';
    expect((await ackedWith(body)).text).toBe('{"text":"two"}');
  });

  it('help is frozen through and through, so it is encoded once', () => {
    const help = immediateHelp('help learn') as { blocks: { text?: object }[] };
    expect(Object.isFrozen(help)).toBe(true);
    expect(help.blocks.every((b) => Object.isFrozen(b) && (!b.text || Object.isFrozen(b.text)))).toBe(true);
    expect(immediateHelp('help learn')).toBe(help);
  });
});

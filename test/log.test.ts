import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
import { boltLogger } from '../src/slack/bolt-logger.js';
import { webClientOptions } from '../src/slack/web-client.js';
import { captureLogs } from './support/logs.js';

describe('logger', () => {
  it("scrubs any text shaped like a Slack token, though nobody listed it (an installation's own)", () => {
    const { lines, destination } = captureLogs();
    const log = createLogger({ level: 'info', secrets: [], destination });
    log.warn(
      { err: 'invalid_auth for xoxb-12345-67890-abcdefABCDEF', nested: { refresh: 'xoxe-1-My4xLTEy' } },
      'refused: xapp-1-A0-123-abc and xoxp-99-88-77 in text',
    );
    const line = lines.join('');
    for (const token of [
      'xoxb-12345-67890-abcdefABCDEF',
      'xoxe-1-My4xLTEy',
      'xapp-1-A0-123-abc',
      'xoxp-99-88-77',
    ])
      expect(line).not.toContain(token);
    expect(line.match(/\[redacted\]/g)).toHaveLength(4);
  });

  it('redacts secret keys and scrubs secret values inside messages and nested objects', () => {
    const { lines, destination } = captureLogs();
    const secret = 'xoxb-very-secret-token-123';
    const log = createLogger({ level: 'info', secrets: [secret], destination });
    log.info({ token: 'abc', req: { headers: { authorization: 'Bearer zzz' } } }, 'plain');
    log.warn({ err: { message: `call failed with ${secret}` } }, `url was https://x/?t=${secret}`);
    const text = lines.join('');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('Bearer zzz');
    expect(text).toContain('[redacted]');
    const second = JSON.parse(lines[1] ?? '{}');
    expect(second.msg).toBe('url was https://x/?t=[redacted]');
    expect(second.err.message).toBe('call failed with [redacted]');
  });
});

describe("Bolt's and the Web API client's lines", () => {
  it('mask a token a person typed into a form, in the Web API answer the client logs at debug', async () => {
    const typed = `tsai-pat-form${randomBytes(12).toString('hex')}`;
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      const state = {
        values: { name: { name_value: { type: 'plain_text_input', value: `formed ${typed}` } } },
      };
      res.end(JSON.stringify({ ok: true, view: { id: 'V1', state } }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { lines, destination } = captureLogs();
      const log = createLogger({ level: 'debug', secrets: [], destination });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
      const client = new webApi.WebClient('xoxb-test', { ...webClientOptions(url), logger: boltLogger(log) });
      const r = await client.views.update({
        view_id: 'V1',
        view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] },
      });
      expect(JSON.stringify(r)).toContain(typed);
      const text = lines.join('');
      expect(text).toContain('views.update');
      expect(text).toContain('formed [a token-like value, not shown]');
      expect(text).not.toContain(typed.slice(0, 16));
    } finally {
      server.close();
    }
  });
});

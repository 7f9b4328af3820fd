import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
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

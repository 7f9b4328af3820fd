import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
import { captureLogs } from './support/logs.js';

describe('logger', () => {
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

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger, humanLogLine } from '../../src/log.js';
import { startAll } from '../../standins/start-all.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _e, done) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((l: string) => l !== ''),
      );
      done();
    },
  });
  return { lines, destination };
}

/** `npm start` in a terminal: readable log lines, and each start-up notice once, as its banner. */
describe('logs for a terminal', () => {
  it('are one short line per entry, with secrets redacted as in JSON', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ human: true, destination, secrets: ['xoxb-very-secret-token'] });
    logger.info({ token: 'abc', port: 3000, note: 'sent with xoxb-very-secret-token' }, 'bot is running');
    logger.warn('careful');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}bot is running token=\[redacted\] port=3000 note="sent with \[redacted\]"$/,
    );
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WARN {2}careful$/);
    expect(lines.join('\n')).not.toContain('xoxb-very-secret-token');
  });

  it('pass a line that is not a log entry on as it is', () => {
    expect(humanLogLine('plain words')).toBe('plain words');
  });

  it.each([
    [false, 0],
    [true, 3],
  ])('start-up notices with noticesInLog=%s: every banner, and %i log entries of them', async (inLog, n) => {
    const { lines, destination } = capture();
    const banners: string[] = [];
    const running = await startAll({
      config: loadConfig({ PORT: '0', DATABASE_URL: ':memory:' }),
      logger: createLogger({ destination }),
      banner: (t) => banners.push(t),
      noticesInLog: inLog,
      sandboxPort: 0,
    });
    await running.stop();
    const notices = ['BUILT-IN EMULATOR', 'LOCAL SLACK STAND-IN', 'SANDBOX: open'];
    for (const notice of notices) expect(banners.join('')).toContain(notice);
    expect(lines.filter((l) => notices.some((notice) => l.includes(notice)))).toHaveLength(n);
  });
});

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startAll } from '../../src/startup.js';
import { captureLogs } from '../support/logs.js';

describe('startAll (npm start)', () => {
  it('with nothing configured runs the emulator and a local Slack, loudly, and commands work', async () => {
    const { lines, destination } = captureLogs();
    const logger = createLogger({
      level: 'info',
      destination,
    });
    const dir = mkdtempSync(join(tmpdir(), 'tsai-start-'));
    const databaseUrl = join(dir, 'nested', 'bot.sqlite');
    const running = await startAll({
      config: loadConfig({ PORT: '0', DATABASE_URL: databaseUrl, TSAI_COMMAND_WORKER: 'false' }),
      logger,
    });
    try {
      expect(running.emulator).toBeDefined();
      expect(running.localSlack).toBeDefined();
      expect(existsSync(databaseUrl)).toBe(true);
      const log = lines.join('');
      expect(log).toContain('BUILT-IN EMULATOR');
      expect(log).toContain('LOCAL SLACK STAND-IN');
      const slack = running.localSlack!;
      const ack = await slack.sendCommand({
        user: 'U0ALICE',
        channel: 'C0GENERAL',
        text: 'workspace create demo',
      });
      expect(ack.status).toBe(200);
      const reply = await slack.waitFor(
        () =>
          slack
            .messages('C0GENERAL', { user: 'U0ALICE' })
            .find((m) => m.text.includes('created a workspace')),
        5000,
      );
      expect(reply.ephemeralTo).toBeUndefined();
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with the command worker on, refuses a test clock or hooks, which cannot reach its thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-start-'));
    try {
      const start = startAll({
        config: loadConfig({ PORT: '0', DATABASE_URL: join(dir, 'bot.sqlite') }),
        logger: createLogger({ level: 'silent' }),
        now: () => new Date(),
      });
      await expect(start).rejects.toThrow('set TSAI_COMMAND_WORKER=false');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with an in-memory SQLite store, keeps commands on the main thread and says why', async () => {
    const { lines, destination } = captureLogs();
    const logger = createLogger({
      level: 'warn',
      destination,
    });
    const running = await startAll({ config: loadConfig({ PORT: '0', DATABASE_URL: ':memory:' }), logger });
    try {
      expect(running.config.commandWorker).toBe(true);
      expect(running.bot?.deps.runCommand).toBeUndefined();
      expect(lines.join('')).toContain('cannot be shared with the command worker');
    } finally {
      await running.stop();
    }
  });
});

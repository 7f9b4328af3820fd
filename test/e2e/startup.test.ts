import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { settableClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/log.js';
import { type LoggedRequest, SEED } from '../../standins/emulator/index.js';
import { startAll } from '../../standins/start-all.js';
import { emulatorControl } from '../support/emulator.js';
import { captureLogs, registerSecrets } from '../support/logs.js';
import { patient, waitUntil } from '../support/patience.js';

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
      config: loadConfig({ PORT: '0', DATABASE_URL: databaseUrl }),
      logger,
    });
    registerSecrets(...running.config.secrets);
    try {
      expect(running.emulator).toBeDefined();
      expect(running.localSlack).toBeDefined();
      expect(existsSync(databaseUrl)).toBe(true);
      const log = lines.join('');
      expect(log).toContain('BUILT-IN EMULATOR');
      expect(log).toContain('LOCAL SLACK STAND-IN');
      const slack = patient(running.localSlack!);
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
      // The demo data is known by name from the start: a command may name it.
      const named = await slack.sendCommand({
        user: 'U0ALICE',
        channel: 'C0GENERAL',
        text: 'workspace show "Pump station A"',
      });
      expect(named.status).toBe(200);
      await slack.waitFor(
        () =>
          slack
            .messages('C0GENERAL', { user: 'U0ALICE' })
            .find((m) =>
              JSON.stringify(m.blocks ?? []).includes(
                'Names resolved: workspace \\"Pump station A\\" → `1030000000000000001`',
              ),
            ),
        5000,
        'the demo workspace by name',
      );
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs follow-ups on the worker thread, where a settable clock reaches too', async () => {
    const { lines, destination } = captureLogs();
    const logger = createLogger({ level: 'info', destination });
    const dir = mkdtempSync(join(tmpdir(), 'tsai-start-'));
    const clock = settableClock(new Date('2026-03-10T12:00:00Z'));
    const running = await startAll({
      config: loadConfig({ PORT: '0', DATABASE_URL: join(dir, 'bot.sqlite'), TSAI_DEFAULT_TIMEZONE: 'UTC' }),
      logger,
      clock: clock.source,
    });
    registerSecrets(...running.config.secrets);
    try {
      const slack = patient(running.localSlack!);
      const learn = async (name: string) => {
        await slack.sendCommand({
          user: 'U0ALICE',
          channel: 'C0GENERAL',
          text: `learn workspace=${SEED.workspaces.pumpStation} signals=${SEED.signals.temperature} range=yesterday name=${name}`,
        });
        const body = await waitUntil(
          async () => {
            const requests = (await emulatorControl(running.emulator!.url)(
              'GET',
              'requests',
            )) as LoggedRequest[];
            const found = requests.find((r) => (r.body as { name?: string } | undefined)?.name === name);
            if (!found) throw new Error(`no flow named ${name} yet`);
            return found.body as { spec: { dataspec: { specs: { timeRanges: { startTime: string }[] }[] } } };
          },
          { timeout: 5000 },
        );
        return body.spec.dataspec.specs[0]!.timeRanges[0]!.startTime;
      };
      // alice is in Europe/London, which is UTC in March before the change.
      expect(await learn('first')).toBe('2026-03-09T00:00:00Z');
      clock.advance(2 * 86_400_000);
      expect(await learn('second')).toBe('2026-03-11T00:00:00Z');
      // The service has the request before the worker logs it handled, and logs come over once per turn.
      const handled = await waitUntil(() => {
        const found = lines.filter((l) => l.includes('"operation handled"'));
        expect(found.length).toBe(2);
        return found;
      });
      for (const line of handled) expect(JSON.parse(line).thread).toBe('follow-ups');
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with an in-memory SQLite store, runs follow-ups on the main thread, says why, and works', async () => {
    const { lines, destination } = captureLogs();
    const logger = createLogger({ level: 'info', destination });
    const running = await startAll({ config: loadConfig({ PORT: '0', DATABASE_URL: ':memory:' }), logger });
    registerSecrets(...running.config.secrets);
    try {
      expect(lines.join('')).toContain('cannot be shared with a worker thread');
      const slack = patient(running.localSlack!);
      await slack.sendCommand({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'workspace create in-memory' });
      await slack.waitFor(
        () => slack.messages('C0GENERAL').find((m) => m.text.includes('created a workspace')),
        5000,
      );
      const handled = lines.find((l) => l.includes('"operation handled"'));
      expect(handled && JSON.parse(handled).thread).toBeUndefined();
    } finally {
      await running.stop();
    }
  });
});

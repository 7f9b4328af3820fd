import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { openStore } from '../../src/store/index.js';
import { startAll } from '../../standins/start-all.js';

const DAY = 86_400_000;

describe('retention as the bot runs it', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('at start, deletes audit entries and names past their retention and keeps the recent ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-retention-'));
    dirs.push(dir);
    const databaseUrl = join(dir, 'bot.sqlite');
    const now = Date.now();
    const seed = await openStore(databaseUrl);
    await seed.appendAudit({ at: now - 40 * DAY, userId: 'U0ALICE', operation: 'old.one', outcome: 'ok' });
    await seed.appendAudit({ at: now - 2 * DAY, userId: 'U0ALICE', operation: 'recent.one', outcome: 'ok' });
    await seed.close();

    const running = await startAll({
      config: loadConfig({ PORT: '0', DATABASE_URL: databaseUrl, TSAI_RETAIN_AUDIT: '30d' }),
      logger: createLogger({ level: 'silent' }),
    });
    try {
      const operations = async () =>
        (await running.bot.store.listAudit({ limit: 100 })).map((e) => e.operation);
      const deadline = Date.now() + 10_000;
      while ((await operations()).includes('old.one') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(await operations()).not.toContain('old.one');
      expect(await operations()).toContain('recent.one');
    } finally {
      await running.stop();
    }
  });
});

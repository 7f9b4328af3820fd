import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { SEED } from '../../standins/emulator/index.js';
import { startAll } from '../../standins/start-all.js';
import { buttonsOf, textOf } from '../support/approvals-rig.js';
import { patient } from '../support/patience.js';

describe('npm start with nothing configured (emulator + local Slack)', () => {
  it('live start can be requested and approved by the demo approvers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-sandbox-'));
    const logger = createLogger({
      level: 'silent',
      destination: new Writable({ write: (_c, _e, cb) => cb() }),
    });
    const running = await startAll({
      config: loadConfig({ PORT: '0', DATABASE_URL: join(dir, 'bot.sqlite'), TSAI_COMMAND_WORKER: 'false' }),
      logger,
    });
    try {
      const slack = patient(running.localSlack!);
      await slack.sendCommand({
        user: 'U0ALICE',
        channel: 'C0OPS',
        text: `live start ${SEED.models.pressureCommon}`,
      });
      const request = await slack.waitFor(
        () => slack.messages('C0OPS').find((m) => buttonsOf(m).includes('approval_approve')),
        5000,
      );
      await slack.clickButton({
        user: 'U0CAROL',
        channel: 'C0OPS',
        messageTs: request.ts,
        actionId: 'approval_approve',
      });
      const done = await slack.waitFor(() => {
        const m = slack.messages('C0OPS').find((x) => x.ts === request.ts);
        return m && /Approved and executed/.test(textOf(m)) ? m : undefined;
      }, 5000);
      expect(textOf(done)).toContain('<@U0CAROL>');
    } finally {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

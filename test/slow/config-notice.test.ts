import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The built production bot (its bundle) as a child process: the notice for an old variable name reaches its log.
describe('an old variable name', () => {
  it('the process logs the notice once, as a warning, before anything else can fail', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-notice-'));
    // The production bot without Slack refuses to start (exit 2), after the configuration was read.
    const run = spawnSync(
      process.execPath,
      [join(import.meta.dirname, '..', '..', 'dist', 'bot', 'main.js')],
      {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', TSAI_REQUEST_TIMEOUT_MS: '4321' },
        encoding: 'utf8',
      },
    );
    expect(run.status).toBe(2);
    const notices = run.stdout
      .split('\n')
      .filter((l) => l.includes('TSAI_REQUEST_TIMEOUT_MS'))
      .map((l) => JSON.parse(l) as { level: number; variable: string; msg: string });
    expect(notices).toEqual([
      expect.objectContaining({
        level: 40,
        variable: 'TSAI_REQUEST_TIMEOUT_MS',
        msg: expect.stringContaining('rename it to TSAI_REQUEST_TIMEOUT,'),
      }),
    ]);
    expect(run.stderr).toContain('TSAI_BASE_URL: is required by the production bot');
  });
});

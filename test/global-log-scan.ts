import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEED } from '../standins/emulator/seed.js';
import { BOT_TOKEN, SIGNING_SECRET } from './support/harness-secrets.js';
import { scanLogs } from './support/log-scan.js';

/**
 * No secret in any log of the whole run: every test file's loggers and child bots keep their lines in one
 * directory (test/support/logs.ts); when the run ends they are scanned for the bot token, the signing
 * secret and the service token (the fixed test ones, those tests registered, and anything shaped like a
 * Slack token). A leak fails the run, naming the file and line; the logs are then kept for inspection.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'tsai-test-logs-'));
  process.env.TSAI_TEST_LOG_DIR = dir;
  return () => {
    const leaks = scanLogs(dir, [BOT_TOKEN, SIGNING_SECRET, SEED.token]);
    if (leaks.length === 0) {
      rmSync(dir, { recursive: true, force: true });
      return;
    }
    const shown = leaks.slice(0, 20).map((l) => `  ${l.file}:${l.line}: ${l.what}`);
    // Vitest reports an error thrown here but still exits 0; the exit code makes the run fail.
    process.exitCode = 1;
    throw new Error(`secrets in the test run's logs (kept in ${dir}):\n${shown.join('\n')}`);
  };
}

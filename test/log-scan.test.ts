import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log.js';
import { scanLogs } from './support/log-scan.js';
import { captureLogs } from './support/logs.js';

describe('the secrets scan of the test run', () => {
  it('finds a known secret, a registered one and anything shaped like a Slack token, by file and line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsai-scan-'));
    try {
      writeFileSync(
        join(dir, 'in-process-1.log'),
        '{"msg":"ok","token":"[redacted]"}\n{"msg":"sent with s3cret-known"}\n',
      );
      writeFileSync(
        join(dir, 'child-2.log'),
        'starting\n{"err":"auth failed for xoxb-123456789-abcdefgh"}\n',
      );
      writeFileSync(
        join(dir, 'secrets-3.log'),
        `${Buffer.from('generated-signing-secret').toString('base64')}\n`,
      );
      writeFileSync(join(dir, 'in-process-3.log'), '{"url":"/?s=generated-signing-secret"}\n');
      expect(
        scanLogs(dir, ['s3cret-known'])
          .map((l) => `${l.file}:${l.line}:${l.what}`)
          .sort(),
      ).toEqual([
        'child-2.log:2:xoxb-1…(23 chars)',
        'in-process-1.log:2:s3cret…(12 chars)',
        'in-process-3.log:1:genera…(24 chars)',
      ]);
      writeFileSync(join(dir, 'child-2.log'), 'clean\n');
      writeFileSync(join(dir, 'in-process-1.log'), '{"token":"[redacted]"}\n');
      writeFileSync(join(dir, 'in-process-3.log'), '\n');
      expect(scanLogs(dir, ['s3cret-known'])).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a test's log lines reach the run's log directory, scrubbed", () => {
    const dir = process.env.TSAI_TEST_LOG_DIR;
    expect(dir, 'the run sets TSAI_TEST_LOG_DIR (test/global-log-scan.ts)').toBeTruthy();
    const { destination } = captureLogs();
    const marker = `scan-marker-${process.pid}-${Date.now()}`;
    createLogger({ secrets: ['xoxb-never-shown-123456'], destination }).info(
      { marker },
      'calling with xoxb-never-shown-123456',
    );
    const kept = readFileSync(join(dir!, `in-process-${process.pid}.log`), 'utf8');
    const line = kept.split('\n').find((l) => l.includes(marker));
    expect(line).toContain('calling with [redacted]');
  });
});

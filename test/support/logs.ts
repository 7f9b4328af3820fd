import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';

/**
 * Every log line a test run writes is also kept in TSAI_TEST_LOG_DIR (made by test/global-log-scan.ts),
 * which the run's teardown scans for secrets: in-process bots (and their worker threads, whose lines reach
 * the same destination), and bots in child processes (their stdout and stderr).
 */
const SUITE_LOG_DIR = process.env.TSAI_TEST_LOG_DIR;
const files = new Map<string, number>();

/** Appends `text` to this process's file of `kind` for the secrets scan (nothing when run without it). */
export function keepForScan(kind: string, text: string): void {
  if (!SUITE_LOG_DIR) return;
  const name = `${kind}-${process.pid}.log`;
  let fd = files.get(name);
  if (fd === undefined) {
    fd = openSync(join(SUITE_LOG_DIR, name), 'a');
    files.set(name, fd);
  }
  writeSync(fd, text);
}

/** Secrets the scan must look for besides the fixed test ones (tokens a test generated, say). */
export function registerSecrets(...secrets: string[]): void {
  for (const s of secrets) if (s) keepForScan('secrets', `${Buffer.from(s).toString('base64')}\n`);
}

process.once('exit', () => {
  for (const fd of files.values()) closeSync(fd);
});

/** A logger destination that keeps every line, for tests that read what was logged. */
export function captureLogs(): { lines: string[]; destination: Writable } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      // A write may carry several lines (the worker's are written a batch at a time).
      for (const line of String(chunk).match(/[^\n]*\n|[^\n]+$/g) ?? []) {
        lines.push(line);
        keepForScan('in-process', line);
      }
      cb();
    },
  });
  return { lines, destination };
}

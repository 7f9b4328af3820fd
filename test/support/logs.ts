import { Writable } from 'node:stream';

/** A logger destination that keeps every line, for tests that read what was logged. */
export function captureLogs(): { lines: string[]; destination: Writable } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, destination };
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Slack tokens of any kind: a log line should only ever show them as [redacted]. */
const TOKEN_SHAPES = /\b(xox[abpre]-[A-Za-z0-9-]{8,}|xapp-[A-Za-z0-9-]{8,})/g;

export interface Leak {
  file: string;
  line: number;
  /** The secret, shortened so that the report does not repeat it whole. */
  what: string;
}

/**
 * Every place a secret appears in the logs kept in `dir`: each of `secrets`, each secret registered by a
 * test (`secrets-*.log`, one base64 value a line), and anything shaped like a Slack token.
 */
export function scanLogs(dir: string, secrets: readonly string[]): Leak[] {
  const names = readdirSync(dir);
  const registered = names
    .filter((n) => n.startsWith('secrets-'))
    .flatMap((n) => readFileSync(join(dir, n), 'utf8').split('\n'))
    .filter(Boolean)
    .map((b) => Buffer.from(b, 'base64').toString());
  const all = [...new Set([...secrets, ...registered])].filter((s) => s.length >= 6);
  const leaks: Leak[] = [];
  for (const name of names.filter((n) => !n.startsWith('secrets-'))) {
    const lines = readFileSync(join(dir, name), 'utf8').split('\n');
    lines.forEach((text, i) => {
      const found = new Set<string>();
      for (const s of all) if (text.includes(s)) found.add(s);
      for (const m of text.matchAll(TOKEN_SHAPES)) found.add(m[1]!);
      for (const s of found)
        leaks.push({ file: name, line: i + 1, what: `${s.slice(0, 6)}…(${s.length} chars)` });
    });
  }
  return leaks;
}

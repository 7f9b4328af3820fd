import type { MoveReport } from './move.js';

export const count = (n: number): string => n.toLocaleString('en-US');

/** The end of a move, for the person who ran it: what was moved, that it was verified, what to do next. */
export function movedInWords(r: MoveReport): string {
  const width = Math.max(...r.tables.map((t) => t.name.length), 10);
  const total = r.tables.reduce((n, t) => n + t.rows, 0);
  const lines = [
    '',
    `Moved from ${r.from}`,
    `        to ${r.to}`,
    `at schema version ${r.version}${versionNote(r)}.`,
    '',
    `  ${'table'.padEnd(width)}  ${'rows'.padStart(9)}  checksum (the same on both sides)`,
    ...r.tables.map(
      (t) => `  ${t.name.padEnd(width)}  ${count(t.rows).padStart(9)}  ${t.checksum.slice(0, 16)}`,
    ),
    `  ${`${r.tables.length} tables`.padEnd(width)}  ${count(total).padStart(9)}`,
    '',
    'Verified: every table holds the same rows on both sides (its count, and a checksum of every value).',
  ];
  if (r.replaced > 0)
    lines.push(`The ${count(r.replaced)} rows the target held before were replaced (--force).`);
  lines.push(
    'Encrypted values (people’s tokens, installations’ secrets) were copied as they are: the bot reads them',
    'only with the same TSAI_SECRET_KEY (and TSAI_SECRET_KEYS_PREVIOUS) it ran with.',
    'Next: set DATABASE_URL to the new store and start the bot (every replica with the same settings);',
    'keep the old store, unused, until the bot runs well on the new one.',
  );
  return lines.join('\n');
}

function versionNote(r: MoveReport): string {
  if (r.targetWas === r.version) return '';
  if (r.targetWas === 0) return ' (the target was new: it was set up at that version)';
  return ` (the target was at ${r.targetWas}: it was brought to the source’s)`;
}

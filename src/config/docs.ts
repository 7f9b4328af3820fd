import { formatDuration } from './duration.js';
import { VARIABLES, type Variable } from './variables.js';

function shownDefault(v: Variable<unknown>): string {
  if (v.shownDefault !== undefined) return v.shownDefault;
  if (v.default === undefined) return '—';
  if (typeof v.default === 'number' && v.format === 'duration') return `\`${formatDuration(v.default)}\``;
  return `\`${String(v.default)}\``;
}

/**
 * The table of docs/configuration.md, made from the variables' table itself, so the docs cannot show a
 * default, a format or an old name the code does not have.
 */
export function variablesTable(): string {
  const rows = Object.entries(VARIABLES).map(([name, variable]) => {
    const v: Variable<unknown> = variable;
    const aliases = (v.aliases ?? []).map((a) => `\`${a.name}\``).join(', ') || '—';
    const cells = [`\`${name}\``, v.format, shownDefault(v), v.does, aliases];
    return `| ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`;
  });
  return [
    '| Variable | Format | Default | What it does | Old names (still read) |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

import { failureInWords } from './explain.js';
import { type MoveOptions, moveStore, secretsOf } from './move.js';
import { MoveRefused } from './refusal.js';
import { count, movedInWords } from './report.js';

export const USAGE = `Moves everything the bot keeps from one store to another (SQLite to PostgreSQL, or back), with the bot stopped.

  npm run store:move -- --from <store> --to <store> [--force]

  <store>   as DATABASE_URL is written: a SQLite file (./data/tsai-chatops.sqlite) or a
            PostgreSQL URL (postgres://tsai@db.example.com:5432/tsai; its password in PGPASSWORD or the URL)
  --force   replace whatever the target already holds (without it, a target that holds anything is refused)

Example:
  npm run store:move -- --from ./data/tsai-chatops.sqlite --to postgres://tsai@db.example.com:5432/tsai`;

/** What the command line asks: a move, the usage, or a mistake in words. */
export function readArguments(argv: readonly string[]): MoveOptions | { help: true } | { mistake: string } {
  const given: Record<string, string> = {};
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    // A store may carry a password: what was typed is never repeated, only an option's name.
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag === '--help' || flag === '-h') return { help: true };
    if (!flag.startsWith('-')) return { mistake: 'Name each store after --from or --to.' };
    if (flag === '--force' && inline === undefined) force = true;
    else if (flag === '--from' || flag === '--to') {
      const value = inline ?? argv[++i];
      if (value === undefined || value.trim() === '' || value.startsWith('--'))
        return { mistake: `${flag} needs a store after it.` };
      given[flag] = value;
    } else return { mistake: `${flag} is not an option of store:move.` };
  }
  if (!given['--from']) return { mistake: 'Say which store to move with --from.' };
  if (!given['--to']) return { mistake: 'Say where to move it with --to.' };
  return { from: given['--from'], to: given['--to'], force };
}

export interface Console {
  out(line: string): void;
  err(line: string): void;
}

/** The command: the move, told as it goes and at its end; the exit code (0 moved, 1 not, 2 misused). */
export async function runStoreMove(argv: readonly string[], say: Console): Promise<number> {
  const asked = readArguments(argv);
  if ('help' in asked) {
    say.out(USAGE);
    return 0;
  }
  if ('mistake' in asked) {
    say.err(`${asked.mistake}\n\n${USAGE}`);
    return 2;
  }
  try {
    say.out('Moving the bot’s store; the target keeps nothing until every table is copied and verified.');
    const report = await moveStore({
      ...asked,
      onTable: (name, rows) => say.out(`  copied ${name}: ${count(rows)}`),
    });
    say.out(movedInWords(report));
    return 0;
  } catch (err) {
    if (err instanceof MoveRefused) say.err(`${err.what}\n${err.next}`.trim());
    else
      say.err(
        `${failureInWords(err, secretsOf(asked))}\n` +
          'The target keeps nothing of this move and the source is untouched: once the cause is fixed, run the same command again.',
      );
    return 1;
  }
}

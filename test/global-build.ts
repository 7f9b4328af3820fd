import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The bot's follow-up worker thread runs JavaScript, so the end-to-end tests, which run the bot from its
 * TypeScript sources, need the build of those same sources: it is made once per test run (incrementally).
 */
export default function setup(): void {
  const root = resolve(import.meta.dirname, '..');
  execFileSync(
    process.execPath,
    [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}

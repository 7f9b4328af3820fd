import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The bot's follow-up worker thread runs JavaScript, so the end-to-end tests, which run the bot from its
 * TypeScript sources, need the build of those same sources; the tests that run the production bot as a
 * process run its bundle. Both are made once per test run, as `npm run build` makes them.
 */
export default function setup(): void {
  const root = resolve(import.meta.dirname, '..');
  const run = (script: string, args: string[], stdout: 'inherit' | 'ignore') =>
    execFileSync(process.execPath, [resolve(root, script), ...args], {
      cwd: root,
      stdio: ['ignore', stdout, 'inherit'],
    });
  run('node_modules/typescript/bin/tsc', ['-p', 'tsconfig.build.json'], 'inherit');
  // The bundler lists every chunk it writes on stdout; its errors and warnings go to stderr.
  run('node_modules/rolldown/bin/cli.mjs', ['-c', 'rolldown.config.mjs', '--logLevel', 'warn'], 'ignore');
}

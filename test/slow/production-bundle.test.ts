import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const BUNDLE = resolve(import.meta.dirname, '../../dist/bot');

/** The modules bundled into the production bot, by the path the bundler names each one with. */
function bundledModules(): string[] {
  const files = [
    ...readdirSync(BUNDLE).filter((f) => f.endsWith('.js')),
    ...readdirSync(join(BUNDLE, 'chunks'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => join('chunks', f)),
  ];
  return files.flatMap((f) =>
    [...readFileSync(join(BUNDLE, f), 'utf8').matchAll(/^\/\/ (\S+\.[cm]?js)$/gm)].map((m) => m[1]!),
  );
}

describe('the production bundle (dist/bot, made by npm run build)', () => {
  it('holds the bot and zod, and no stand-in or bench code', () => {
    const modules = bundledModules();
    expect(modules).toContain('dist/src/main.js');
    expect(modules).toContain('dist/src/worker.js');
    const foreign = modules.filter(
      (m) => !m.startsWith('dist/src/') && !m.startsWith('node_modules/zod/') && !m.includes('rolldown/'),
    );
    expect(foreign).toEqual([]);
  });

  it('keeps every other package outside, loaded from node_modules as the sources load it', () => {
    const main = readFileSync(join(BUNDLE, 'main.js'), 'utf8');
    expect(main).toMatch(/from "@slack\/bolt"/);
    expect(bundledModules().filter((m) => m.startsWith('node_modules/') && !m.includes('/zod/'))).toEqual([]);
  });
});

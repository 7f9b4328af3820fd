import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const BUNDLE = resolve(import.meta.dirname, '../../dist/bot');

/** The modules bundled into one file of the production bot, by the path the bundler names each one with. */
const modulesIn = (file: string) =>
  [...readFileSync(join(BUNDLE, file), 'utf8').matchAll(/^\/\/ (\S+\.[cm]?js)$/gm)].map((m) => m[1]!);

/** The modules bundled into the production bot. */
function bundledModules(): string[] {
  const files = [
    ...readdirSync(BUNDLE).filter((f) => f.endsWith('.js')),
    ...readdirSync(join(BUNDLE, 'chunks'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => join('chunks', f)),
  ];
  return files.flatMap(modulesIn);
}

describe('the production bundle (dist/bot, made by npm run build)', () => {
  it('holds the bot, zod and the Bolt modules it uses, and no stand-in or bench code', () => {
    const modules = bundledModules();
    expect(modules).toContain('dist/src/main.js');
    expect(modules).toContain('dist/src/worker.js');
    const foreign = modules.filter(
      (m) =>
        !m.startsWith('dist/src/') &&
        !m.startsWith('node_modules/zod/') &&
        !m.startsWith('node_modules/@slack/bolt/dist/') &&
        !m.includes('rolldown/'),
    );
    expect(foreign).toEqual([]);
  });

  it("keeps every other package outside, and takes Bolt's App without its entry or the receivers it would make", () => {
    const modules = bundledModules();
    expect(modules.filter((m) => m.startsWith('node_modules/') && !/\/(zod|@slack\/bolt)\//.test(m))).toEqual(
      [],
    );
    const bolt = modules.filter((m) => m.startsWith('node_modules/@slack/bolt/'));
    expect(bolt).toContain('node_modules/@slack/bolt/dist/errors.js');
    expect(
      bolt.filter((m) => /dist\/(index|receivers\/(HTTP|Express|AwsLambda)Receiver)\.js$/.test(m)),
    ).toEqual([]);
    // Socket Mode's receiver is bundled to be loaded when configured, in a chunk of its own.
    const socketMode = 'node_modules/@slack/bolt/dist/receivers/SocketModeReceiver.js';
    expect(bolt).toContain(socketMode);
    expect(modulesIn('main.js')).not.toContain(socketMode);
    expect(readFileSync(join(BUNDLE, 'main.js'), 'utf8')).not.toMatch(/from "@slack\/bolt"/);
  });
});

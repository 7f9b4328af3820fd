import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's chromium, driven by playwright-core; no browser is ever downloaded. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ROOT = resolve(import.meta.dirname, '..', '..', '..');

/**
 * Whether the browser tests can run. Without chromium they fail under CI=true (CI installs it) and are
 * skipped elsewhere with a visible notice.
 */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const msg = `chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`;
  if (process.env.CI === 'true') throw new Error(`${msg}; the browser tests cannot be skipped under CI=true`);
  console.warn(`\n  NOTICE: browser tests SKIPPED: ${msg}\n`);
  return false;
}

/** A fresh profile each time (Playwright passes it as --user-data-dir). */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'tsai-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** `npm run build`, as `npm start` does first: the page's browser script is compiled into dist/. */
export async function buildProduct(): Promise<void> {
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  await promisify(execFile)(
    process.execPath,
    [tsc, '-b', 'tsconfig.build.json', 'standins/sandbox/web/tsconfig.json'],
    { cwd: ROOT },
  );
}

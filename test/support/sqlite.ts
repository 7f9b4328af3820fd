import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/index.js';
import type { StoreLocation } from './store-conformance.js';

/** A fresh SQLite file in its own temp directory (a nested path, so directory creation is exercised). */
export async function sqliteLocation(): Promise<StoreLocation> {
  const dir = await mkdtemp(join(tmpdir(), 'tsai-store-'));
  const file = join(dir, 'nested', 'bot.sqlite');
  return {
    open: () => SqliteStore.open(file),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

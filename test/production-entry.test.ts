import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Every import: static, dynamic of a literal path, type-only, side-effect only. */
const ANY_IMPORT = /(?:\bfrom|\bimport\s*\(|^import)\s*['"]([^'"]+)['"]/gm;
/** The imports a module waits for before it runs: static imports of values. */
const STATIC_VALUE_IMPORT = /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+['"]([^'"]+)['"]/gm;

/** The project files `entry` loads through `imports`, transitively, and the packages they import. */
function walk(entry: string, imports: RegExp): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(imports)) {
      const spec = m[1]!;
      if (!spec.startsWith('.')) {
        packages.add(spec);
        continue;
      }
      const target = resolve(dirname(file), spec).replace(/\.js$/, '.ts');
      if (existsSync(target)) visit(target);
    }
  };
  visit(resolve(ROOT, entry));
  return { files, packages };
}

/** Every project file `entry` can load, at start or later. */
const reachable = (entry: string) => walk(entry, ANY_IMPORT).files;

describe('the production entry', () => {
  it.each(['src/main.ts', 'src/worker.ts'])('%s can load no stand-in or bench code, only src/', (entry) => {
    const outside = [...reachable(entry)].map((f) => relative(ROOT, f)).filter((f) => !f.startsWith('src/'));
    expect(outside).toEqual([]);
  });

  it('the sandbox entry does reach the stand-ins (so the check above can fail)', () => {
    const files = [...reachable('standins/main.ts')].map((f) => relative(ROOT, f));
    expect(files).toContain('standins/emulator/index.ts');
    expect(files).toContain('src/startup.ts');
  });
});

describe('what the acking thread loads before its first acknowledgement', () => {
  // Each of these is loaded on first use instead: the service client with the wire format's schemas,
  // the metrics library (once the metrics are served).
  it('is not the service client, the wire schemas or prom-client', () => {
    const { files, packages } = walk('src/main.ts', STATIC_VALUE_IMPORT);
    const loaded = [...files].map((f) => relative(ROOT, f));
    expect(loaded).toContain('src/slack/app.ts');
    expect(loaded.filter((f) => /^src\/(api\/client|wire\/index|metrics\/instruments)/.test(f))).toEqual([]);
    expect([...packages].filter((p) => ['prom-client', 'chrono-node', 'undici', 'pg'].includes(p))).toEqual(
      [],
    );
  });
});

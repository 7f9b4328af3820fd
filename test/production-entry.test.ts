import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** Every project file `entry` can load: its static imports and its dynamic imports of literal paths, transitively. */
function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:\bfrom|\bimport\s*\(|^import)\s*['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      const target = resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts');
      if (existsSync(target)) visit(target);
    }
  };
  visit(resolve(ROOT, entry));
  return seen;
}

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

/** The project files `entry` loads before it runs: its static imports of values, transitively. */
function loadedAtStart(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+['"]([^'"]+)['"]/gm)) {
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

describe('what the acking thread loads before its first acknowledgement', () => {
  // Each of these is loaded on first use instead: the service client with the wire format's schemas,
  // the metrics library (once the metrics are served).
  it('is not the service client, the wire schemas or prom-client', () => {
    const { files, packages } = loadedAtStart('src/main.ts');
    const loaded = [...files].map((f) => relative(ROOT, f));
    expect(loaded).toContain('src/slack/app.ts');
    expect(loaded.filter((f) => /^src\/(api\/client|wire\/index|metrics\/instruments)/.test(f))).toEqual([]);
    expect([...packages].filter((p) => ['prom-client', 'chrono-node', 'undici', 'pg'].includes(p))).toEqual(
      [],
    );
  });
});

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

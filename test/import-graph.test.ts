import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/**
 * file -> the project files it imports; `withTypes` counts `import type` too, `withDynamic` the modules it
 * loads on first use (`import('./x.js')`).
 */
function importGraph(files: string[], withTypes: boolean, withDynamic = false): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const statement = /^(?:import|export)\s+(type\s+)?[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/gms;
  const dynamic = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
  for (const file of files) {
    const targets: string[] = [];
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(statement)].flatMap((m) => (m[1] && !withTypes ? [] : [m[2]!]));
    if (withDynamic) specifiers.push(...[...text.matchAll(dynamic)].map((m) => m[1]!));
    for (const specifier of specifiers) {
      const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
      if (existsSync(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** One cycle of `graph` as a path that comes back to its start, or none. */
function findCycle<T>(graph: Map<T, Iterable<T>>): T[] | undefined {
  const state = new Map<T, 'open' | 'done'>();
  const visit = (node: T, path: T[]): T[] | undefined => {
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    if (state.get(node) === 'done') return undefined;
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next, [...path, node]);
      if (cycle) return cycle;
    }
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node, []);
    if (cycle) return cycle;
  }
  return undefined;
}

const topOf = (file: string) => relative(SRC, file).split('/')[0]!;

describe('the imports of src/', () => {
  const files = sourceFiles(SRC);

  it('finds a cycle where there is one (so the checks below can fail)', () => {
    expect(
      findCycle(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
        ]),
      ),
    ).toEqual(['a', 'b', 'c', 'a']);
    expect(
      findCycle(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toBeUndefined();
  });

  it('no two files import each other in a circle', () => {
    const cycle = findCycle(importGraph(files, false));
    expect(cycle?.map((f) => relative(SRC, f))).toBeUndefined();
  });

  it('no file-level cycle either when type-only imports and modules loaded on first use count', () => {
    const cycle = findCycle(importGraph(files, true, true));
    expect(cycle?.map((f) => relative(SRC, f))).toBeUndefined();
  });

  it('no top-level folder or file imports back one that imports it, types included', () => {
    const folders = new Map<string, Set<string>>();
    for (const [file, targets] of importGraph(files, true)) {
      const from = topOf(file);
      for (const to of targets.map(topOf)) {
        if (to !== from) folders.set(from, (folders.get(from) ?? new Set()).add(to));
      }
    }
    expect(findCycle(folders)).toBeUndefined();
    expect([...(folders.get('core') ?? [])].sort()).not.toContain('slack');
  });
});

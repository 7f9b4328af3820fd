import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_LINES = 120;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every function, method, arrow or accessor with a body longer than `max` lines, as "file:line name (n lines)". */
function longFunctions(fileName: string, text: string, max: number): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line;
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = lineOf(node.getStart(sf));
      const lines = lineOf(node.body.getEnd()) - first + 1;
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
      if (lines > max) found.push(`${fileName}:${first + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('the shape of the code', () => {
  it('finds a long function, nested or not, and lets a short one be', () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `    const v${i} = ${i};`).join('\n');
    const long = `export function outer() {\n  const inner = () => {\n${body}\n  };\n  return inner;\n}\n`;
    expect(longFunctions('long.ts', long, MAX_LINES)).toEqual([
      `long.ts:1 outer (${MAX_LINES + 5} lines)`,
      `long.ts:2 (anonymous) (${MAX_LINES + 2} lines)`,
    ]);
    expect(longFunctions('short.ts', 'function f() {\n  return 1;\n}\n', MAX_LINES)).toEqual([]);
  });

  it(`has no function longer than ${MAX_LINES} lines in src/, standins/ or bench/`, () => {
    const files = ['src', 'standins', 'bench'].flatMap((d) => sourceFiles(join(ROOT, d)));
    expect(files.some((f) => f.includes(join('standins', 'sandbox', 'web')))).toBe(true);
    const long = files.flatMap((f) => longFunctions(relative(ROOT, f), readFileSync(f, 'utf8'), MAX_LINES));
    expect(long).toEqual([]);
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { type BenchResults, markdownFigures } from '../bench/results.js';

/**
 * docs/performance.md's latest figures are bench/results.json's, the file `npm run bench` writes and the
 * repository keeps: `UPDATE_DOCS=1 npx vitest run test/performance-doc.test.ts` writes them in.
 */
const DOC = new URL('../docs/performance.md', import.meta.url);
const RESULTS = new URL('../bench/results.json', import.meta.url);
const START = '<!-- latest figures: made from bench/results.json -->';
const END = '<!-- end of the latest figures -->';

it("docs/performance.md shows bench/results.json's figures, as the bench table gives them", () => {
  const doc = readFileSync(DOC, 'utf8');
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  expect(from, `docs/performance.md marks its latest figures with ${START}`).toBeGreaterThan(0);
  expect(to).toBeGreaterThan(from);
  const results = JSON.parse(readFileSync(RESULTS, 'utf8')) as BenchResults;
  const expected = `${doc.slice(0, from + START.length)}\n${markdownFigures(results)}\n${doc.slice(to)}`;
  if (process.env.UPDATE_DOCS && doc !== expected) writeFileSync(DOC, expected);
  else expect(doc).toBe(expected);
});

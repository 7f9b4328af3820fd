import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

// A child process of its own, so that nothing else has loaded chrono-node; it runs the build in dist/.
it('chrono-node is loaded by the first parse, not by importing the module', () => {
  const index = resolve(import.meta.dirname, '../../dist/src/time/index.js');
  const script = `
    const loaded = () => Object.keys(require.cache).some((k) => k.includes('chrono-node'));
    import(${JSON.stringify(index)}).then((m) => {
      const before = loaded();
      m.parseTimeRange('Nov 1 to Nov 3', { now: new Date(), timeZone: 'UTC' });
      console.log(JSON.stringify([before, loaded()]));
    });`;
  const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(JSON.parse(out)).toEqual([false, true]);
});

import { defineConfig } from 'rolldown';

/**
 * The production bot as it runs: its two thread entries, from tsc's output, in a few files. Node loads
 * an ES module per file, and the bot is some 300 of them with zod's, so that this costs the bot's start
 * more than all its own work before the first acknowledgement (docs/performance.md). npm packages stay
 * where they are (native code, their own lazy loading), except zod, which is ES modules too. The sandbox
 * and the tests run the same code from dist/src; the slow tests run this bundle as a process.
 */
export default defineConfig({
  input: { main: 'dist/src/main.js', worker: 'dist/src/worker.js' },
  platform: 'node',
  external: (id) => !/^(\.|\/|zod(\/|$)|\0)/.test(id),
  output: {
    dir: 'dist/bot',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
    cleanDir: true,
  },
});

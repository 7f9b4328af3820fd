import { defineConfig } from 'rolldown';

/** Bolt's own modules, which the bot imports one by one (src/slack/bolt.ts), never through Bolt's entry. */
const BOLT_MODULE = /^@slack\/bolt\/dist\//;
const IN_BOLT = /[\\/]node_modules[\\/]@slack[\\/]bolt[\\/]dist[\\/]/;
const BOLT_APP = /[\\/]node_modules[\\/]@slack[\\/]bolt[\\/]dist[\\/]App\.js$/;
/** The receivers Bolt's App requires at its top, to make one when it is given none. */
const APP_RECEIVERS = /^\.\/receivers\/(HTTPReceiver|SocketModeReceiver)$/;
const UNUSED_RECEIVER = '\0bolt-receiver-never-made';

/**
 * Bolt's App is bundled without the two receivers it requires to make one when given none: the bot always
 * gives it one (its own HTTP receiver; Socket Mode's, loaded when configured, src/slack/app.ts). Required,
 * they would load OAuth's installer with jsonwebtoken, and Socket Mode with all of undici, into every
 * deployment's acking thread. What stands in for them throws if Bolt ever made one.
 */
const boltAppAlone = {
  name: 'bolt-app-without-its-receivers',
  resolveId(source, importer) {
    if (importer && BOLT_APP.test(importer) && APP_RECEIVERS.test(source)) return UNUSED_RECEIVER;
    return undefined;
  },
  load(id) {
    if (id !== UNUSED_RECEIVER) return undefined;
    return `export default class ReceiverNeverMade {
  constructor() {
    throw new Error("Bolt's App was given no receiver: the bot gives it its own (src/slack/app.ts)");
  }
}`;
  },
};

/**
 * The production bot as it runs: its two thread entries, from tsc's output, in a few files. Node loads
 * an ES module per file, and the bot is some 300 of them with zod's, so that this costs the bot's start
 * more than all its own work before the first acknowledgement (docs/performance.md). npm packages stay
 * where they are (native code, their own lazy loading), except zod, which is ES modules too, and the Bolt
 * modules the bot uses, so that Bolt's App comes without its receivers (above). The sandbox and the tests
 * run the same code from dist/src; the slow tests run this bundle as a process.
 */
export default defineConfig({
  input: { main: 'dist/src/main.js', worker: 'dist/src/worker.js' },
  platform: 'node',
  external: (id, importer) => {
    if (BOLT_MODULE.test(id) || (importer && IN_BOLT.test(importer) && id.startsWith('.'))) return false;
    return !/^(\.|\/|zod(\/|$)|\0)/.test(id);
  },
  plugins: [boltAppAlone],
  output: {
    dir: 'dist/bot',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
    cleanDir: true,
  },
});

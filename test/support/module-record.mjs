// Preloaded into a bot process (`node --import`), on each of its threads: records every module the thread
// loads, the ES modules as they are loaded (a load hook), the CommonJS ones as Node keeps them
// (require.cache) and Node's own as it lists them, and writes them to $RECORD_MODULES_DIR/<thread>.json
// when asked (SIGUSR2 to the process: its main thread writes, and asks every other thread to) and when the
// thread ends. A worker ended by `terminate()` has no end to write at, so a test asks first.
import { writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { BroadcastChannel, isMainThread, MessageChannel, threadId } from 'node:worker_threads';

const dir = process.env.RECORD_MODULES_DIR;
if (dir) {
  const esm = new Set();
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (url) => esm.add(url));
  port1.unref();
  const hooks = `
    let port;
    export async function initialize(data) { port = data.port; }
    export async function load(url, context, next) { port.postMessage(url); return next(url, context); }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, {
    data: { port: port2 },
    transferList: [port2],
  });
  const required = createRequire(import.meta.url).cache;
  const thread = isMainThread ? 'main' : `worker-${threadId}`;
  const write = () =>
    writeFileSync(
      `${dir}/${thread}.json`,
      JSON.stringify({
        esm: [...esm],
        cjs: Object.keys(required),
        // Node's own modules the thread loaded (`NativeModule internal/deps/undici/undici`, …).
        builtin: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)),
      }),
    );
  const threads = new BroadcastChannel('module-record');
  threads.unref();
  threads.onmessage = write;
  if (isMainThread)
    process.on('SIGUSR2', () => {
      write();
      threads.postMessage('write');
    });
  process.on('exit', write);
}

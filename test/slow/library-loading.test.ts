import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

// Each in a child process of its own, so that nothing else has loaded the library; they run the build in
// dist/. What a thread loads it keeps for its life: these hold the follow-up thread's heap to what it uses.

/** Runs `body` (an async function's body, given `dist`) in a fresh node and returns what it prints as JSON. */
function inFreshNode(body: string): unknown {
  const dist = resolve(import.meta.dirname, '../../dist/src');
  const script = `
    const loaded = (part) => Object.keys(require.cache).filter((k) => k.includes(part));
    (async (dist) => { ${body} })(${JSON.stringify(dist)}).then((r) => console.log(JSON.stringify(r)));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

it('chrono-node is loaded by the first parse, not by importing the module, and in English only', () => {
  const result = inFreshNode(`
    const m = await import(dist + '/time/index.js');
    const before = loaded('chrono-node').length;
    m.parseTimeRange('Nov 1 to Nov 3', { now: new Date(), timeZone: 'UTC' });
    const locales = loaded('chrono-node').map((k) => k.match(/locales\\/([a-z]+)\\//)?.[1]).filter(Boolean);
    return { before, after: loaded('chrono-node').length > 0, locales: [...new Set(locales)] };`);
  expect(result).toEqual({ before: 0, after: true, locales: ['en'] });
});

it("the service client and response_url replies load undici's Agent and request, not fetch or WebSocket", () => {
  const result = inFreshNode(`
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => res.end(JSON.stringify({ seen: req.method + ' ' + req.url })));
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const base = 'http://127.0.0.1:' + server.address().port;
    const { Transport } = await import(dist + '/api/transport.js');
    const { acceptResponseUrlsOf, postToResponseUrl } = await import(dist + '/slack/respond.js');
    // This server stands in for Slack, as the local Slack does in the sandbox.
    acceptResponseUrlsOf(base + '/api/');
    const before = loaded('undici').length;
    const transport = new Transport({ baseUrl: base + '/api', token: 't', connectTimeoutMs: 1000,
      requestTimeoutMs: 2000, maxAttempts: 1, maxRetryTimeMs: 0, retryBaseDelayMs: 1, maxConnections: 2,
      maxQueued: 2, maxQueueWaitMs: 1000 });
    const reply = await transport.send({ method: 'GET', path: '/flows', query: { a: 'b' }, what: 'flows' });
    await postToResponseUrl(base + '/hooks/1', { text: 'done' });
    await transport.close();
    server.close();
    return {
      before,
      reply: reply.body,
      entry: loaded('undici/index.js').length,
      web: loaded('undici/lib/web/').length,
      parts: loaded('undici/lib/').length > 0,
    };`);
  expect(result).toEqual({
    before: 0,
    reply: { seen: 'GET /api/flows?a=b' },
    entry: 0,
    web: 0,
    parts: true,
  });
});

it("the follow-up worker's program, as built for production, loads no Bolt, Express or all of undici", () => {
  // The worker imports the list of features whole, listeners included; only the acking thread serves
  // HTTP, and Bolt with its receivers (Express, Socket Mode with all of undici) would be ~2 MB of source
  // compiled into the worker's heap for its life.
  const bundle = resolve(import.meta.dirname, '../../dist/bot');
  const entry = readFileSync(resolve(bundle, 'worker.js'), 'utf8');
  const program = entry.match(/import\("(\.\/chunks\/worker-main-[^"]+\.js)"\)/)?.[1];
  expect(program, 'dist/bot/worker.js imports its program from a worker-main chunk').toBeTruthy();
  const result = inFreshNode(`
    const before = Object.keys(require.cache).length;
    const m = await import(${JSON.stringify(resolve(bundle, program ?? ''))});
    return {
      program: typeof m.runWorkerThread,
      some: Object.keys(require.cache).length > before,
      bolt: loaded('@slack/bolt'),
      express: loaded('/express/'),
      undici: loaded('undici/index.js'),
    };`);
  expect(result).toEqual({ program: 'function', some: true, bolt: [], express: [], undici: [] });
});

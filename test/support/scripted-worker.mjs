// A stand-in follow-up worker for testing startWorkerHost (src/slack/runtime/worker-host.ts): it speaks
// the same protocol, and its behaviour per job comes from the command text.
import { existsSync, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * `startGate`: a file that, while it exists, holds a starting worker back (as a store that does not answer
 * would); once it reads `fail`, the worker fails its start.
 */
async function gated() {
  const gate = workerData.startGate;
  while (gate && existsSync(gate)) {
    if (readFileSync(gate, 'utf8') === 'fail') return true;
    await new Promise((ok) => setTimeout(ok, 10));
  }
  return false;
}

if (workerData.failStart || (await gated())) {
  parentPort.postMessage({ kind: 'start-failed', message: 'scripted start failure' });
  parentPort.close();
} else {
  // Jobs sent with a claim, until the host answers: `late-claim` asks only after 500 ms.
  const claiming = new Map();
  parentPort.on('message', async (m) => {
    if (m.kind === 'drain') {
      parentPort.postMessage({ kind: 'drained' });
      parentPort.close();
      return;
    }
    if (m.kind === 'claimed') {
      const job = claiming.get(m.id);
      claiming.delete(m.id);
      if (m.ok) await run({ id: m.id, job });
      else {
        parentPort.postMessage({ kind: 'logs', lines: [`{"msg":"dropped ${job.command.text}"}\n`] });
        parentPort.postMessage({ kind: 'done', ids: [m.id] });
      }
      return;
    }
    if (m.claim) {
      claiming.set(m.id, m.job);
      const ask = () => parentPort.postMessage({ kind: 'claim', id: m.id });
      if (m.job.command.text === 'late-claim') setTimeout(ask, 500);
      else ask();
      return;
    }
    await run(m);
  });
  async function run(m) {
    const { text, response_url } = m.job.command;
    if (text === 'crash') {
      setImmediate(() => {
        throw new Error('scripted crash');
      });
      return;
    }
    if (text === 'hang') return;
    await fetch(response_url, { method: 'POST', body: JSON.stringify({ text: `ran ${text}` }) });
    parentPort.postMessage({ kind: 'logs', lines: [`{"msg":"ran ${text}"}\n`] });
    parentPort.postMessage({ kind: 'done', ids: [m.id] });
  }
  parentPort.postMessage({ kind: 'ready' });
}

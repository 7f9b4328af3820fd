// A stand-in follow-up worker for testing startWorkerHost (src/slack/runtime/worker-host.ts): it speaks
// the same protocol, and its behaviour per job comes from the command text.
import { parentPort, workerData } from 'node:worker_threads';

if (workerData.failStart) {
  parentPort.postMessage({ kind: 'start-failed', message: 'scripted start failure' });
  parentPort.close();
} else {
  parentPort.on('message', async (m) => {
    if (m.kind === 'drain') {
      parentPort.postMessage({ kind: 'drained' });
      parentPort.close();
      return;
    }
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
  });
  parentPort.postMessage({ kind: 'ready' });
}

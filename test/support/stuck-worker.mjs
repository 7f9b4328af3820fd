// A stand-in follow-up worker that takes every job and never runs one: a worker starved of the CPU by a
// busy machine, taken to its end. What still works beside it runs on the acking thread.
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (m) => {
  if (m.kind === 'drain') {
    parentPort.postMessage({ kind: 'drained' });
    parentPort.close();
  }
  if (m.kind === 'metrics') parentPort.postMessage({ kind: 'metrics', id: m.id, metrics: [] });
});
parentPort.postMessage({ kind: 'ready' });

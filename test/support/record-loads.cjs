// Preloaded (--require) into a bot process and, as Node does with preloads, into its worker threads:
// appends each OpenTelemetry file a thread loads to the file TSAI_RECORD_LOADS names, with the thread's
// ID. Every package of OpenTelemetry the bot uses is CommonJS, which Node reads through Module#load
// whether `require` or `import` asked for it.
const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const { threadId } = require('node:worker_threads');

const out = process.env.TSAI_RECORD_LOADS;
const load = Module.prototype.load;
Module.prototype.load = function (filename) {
  if (out && filename.includes('@opentelemetry')) appendFileSync(out, `${threadId} ${filename}\n`);
  return load.call(this, filename);
};

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from '../../standins/otlp/receiver.js';
import { OPS, REQUESTER, type Rig, startRig } from '../support/approvals-rig.js';
import { prepareBotProgram, startBotProcess } from '../support/bot-process.js';

// The bot as its own process, on both of its threads, with a recorder of the OpenTelemetry files each
// thread loads: with no OTEL_* variable set, none; with one set, the SDK on both threads.
let rig: Rig;
let program: Awaited<ReturnType<typeof prepareBotProgram>>;
let otlp: OtlpReceiver;
const dir = mkdtempSync(join(tmpdir(), 'tsai-loads-'));
beforeAll(async () => {
  program = await prepareBotProgram();
  rig = await startRig();
  otlp = await startOtlpReceiver();
});
afterAll(async () => {
  await rig?.close();
  await otlp?.close();
  await program?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the bot process with `env`, has it run a command on its worker, stops it: what each thread loaded. */
async function loadsWith(name: string, env: Record<string, string>): Promise<Map<number, string[]>> {
  const file = join(dir, name);
  const recorder = resolve(import.meta.dirname, '../support/record-loads.cjs');
  const proc = await startBotProcess(program.dir, {
    ...rig.env(),
    ...env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${recorder}`.trim(),
    TSAI_RECORD_LOADS: file,
  });
  rig.addBackend(proc.port);
  try {
    const reply = await rig.command('flows', { user: REQUESTER, channel: OPS });
    expect(reply.text).toBeTruthy();
  } finally {
    rig.removeBackend(proc.port);
    await proc.stop();
  }
  const byThread = new Map<number, string[]>();
  for (const line of existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []) {
    const [thread, path] = line.split(' ') as [string, string];
    byThread.set(Number(thread), [...(byThread.get(Number(thread)) ?? []), path]);
  }
  return byThread;
}

it('with no OTEL_* variable set, neither thread loads anything of OpenTelemetry', async () => {
  expect(await loadsWith('off', {})).toEqual(new Map());
});

it('with one set, both threads load the SDK (so the recorder sees it when it is there)', async () => {
  const loads = await loadsWith('on', { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint });
  expect([...loads.keys()].sort()).toEqual([0, expect.any(Number)]);
  for (const files of loads.values())
    expect(files.some((f) => f.includes('@opentelemetry/sdk-trace-base'))).toBe(true);
});

import os from 'node:os';
import type { Machine } from './results.js';

export function machineInfo(): Machine {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    model: cpus[0]?.model.trim() ?? 'unknown',
    memoryMb: Math.round(os.totalmem() / 2 ** 20),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

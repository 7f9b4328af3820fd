export type { FaultSpec } from './faults.js';
export { SEED } from './seed.js';
export { type EmulatorOptions, type LoggedRequest, type RunningEmulator, startEmulator } from './server.js';

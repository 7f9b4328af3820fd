export type { FaultSpec } from './faults.js';
export type { FlowEnding, FlowRule } from './lifecycle.js';
export { SEED } from './seed.js';
export {
  type EmulatorOptions,
  type Features,
  type LoggedRequest,
  type RunningEmulator,
  startEmulator,
} from './server.js';

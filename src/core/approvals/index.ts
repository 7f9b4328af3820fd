export * from './rules.js';
export { startExpirySweeper } from './sweeper.js';
export * from './workflow.js';

export { type ApprovalRunner, Approvals, type RunOperation } from './desk.js';
export * from './rules.js';
export { startApprovalSweeper } from './sweeper.js';
export * from './workflow.js';

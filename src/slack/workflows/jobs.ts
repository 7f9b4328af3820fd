import type { StepStart } from '../../core/workflows/runner.js';

/** What the workflow steps hand on after acknowledging `function_executed`. */
export type WorkflowJob = { kind: 'step-executed'; start: StepStart };

import type { CommandSpec } from '../../grammar/commands.js';
import { anomalyEval, type ScoreCommand, type ScoreRequest } from './anomaly-eval.js';
import { anomalyLearn, type LearnCommand, type LearnRequest } from './anomaly-learn.js';
import { anomalyRelearn, type RelearnCommand, type RelearnRequest } from './anomaly-relearn.js';
import { commandSpecOf, type OperationEntry } from './entry.js';
import { type EvalCommand, type EvalRequest, evalFlow } from './eval.js';
import { type FlowShow, flowShow } from './flow.js';
import { type LiveCommand, type LiveModel, liveModel } from './live-model.js';
import { type ModelCommon, modelCommon } from './model-common.js';
import { type ModelMove, modelMove } from './model-move.js';
import { type WorkspaceCreate, workspaceCreate } from './workspace-create.js';
import { type WorkspaceShow, workspaceShow } from './workspace-show.js';

export type { Argument, FormSpec, OperationEntry, ResolveOutcome } from './entry.js';

/** Every service operation, one entry each, in the order help lists them. */
export const REGISTRY: readonly OperationEntry<unknown, unknown>[] = [
  workspaceCreate,
  workspaceShow,
  modelMove,
  modelCommon,
  evalFlow,
  liveModel,
  anomalyLearn,
  anomalyRelearn,
  anomalyEval,
  flowShow,
];

/** The commands of the service operations, as parsed (before names, ranges and defaults are resolved). */
export type ServiceCommand =
  | WorkspaceCreate
  | WorkspaceShow
  | ModelMove
  | ModelCommon
  | EvalCommand
  | LiveCommand
  | LearnCommand
  | RelearnCommand
  | ScoreCommand
  | FlowShow;

/** The service operations, resolved: what an entry executes. */
export type ServiceOperation =
  | WorkspaceCreate
  | WorkspaceShow
  | ModelMove
  | ModelCommon
  | EvalRequest
  | LiveModel
  | LearnRequest
  | RelearnRequest
  | ScoreRequest
  | FlowShow;

const SPECS = new Map(REGISTRY.map((e) => [e.command.id, commandSpecOf(e)]));

/** The command spec of each entry, by command id, its keys read from its arguments. */
export function registeredSpec(id: string): CommandSpec | undefined {
  return SPECS.get(id);
}

export function entryOfCommand(id: string): OperationEntry<unknown, unknown> | undefined {
  return REGISTRY.find((e) => e.command.id === id);
}

export function entryOfParsed(kind: string): OperationEntry<unknown, unknown> | undefined {
  return REGISTRY.find((e) => e.parsedKind === kind);
}

/** The entry whose form is of this kind (`learn`, `eval`, …). */
export function entryOfForm(kind: string): OperationEntry<unknown, unknown> | undefined {
  return REGISTRY.find((e) => e.form?.kind === kind);
}

export function entryOfOperation(kind: string): OperationEntry<unknown, unknown> | undefined {
  return REGISTRY.find((e) => e.operationKind === kind);
}

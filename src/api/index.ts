export type { Dataspec, FlowRecord, ModelRecord, WorkspaceRecord } from '../wire/index.js';
export type {
  AnomalyEvalInput,
  AnomalyLearnIncrementalInput,
  AnomalyLearnInput,
  EvalFlowInput,
  GetFlowResult,
  ServiceClient,
  ServiceClientOptions,
} from './client.js';
export { createServiceClient } from './client.js';
export { ServiceError, type ServiceErrorKind } from './errors.js';

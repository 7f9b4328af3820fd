export type { AnswerSchema, CallInput, HttpMethod, WireCall } from '../wire/call.js';
export type { Dataspec, FlowRecord, ModelRecord, WorkspaceRecord } from '../wire/index.js';
export type {
  GetFlowResult,
  ServiceAccountClients,
  ServiceCalls,
  ServiceClient,
  ServiceClientOptions,
} from './client.js';
export { createServiceClient } from './client.js';
export { ServiceError, type ServiceErrorKind } from './errors.js';
export {
  type FlowDataspecResult,
  type FlowEvalResult,
  type FlowModelResult,
  type FlowPhase,
  type FlowResults,
  type FlowSegmentResult,
  type FlowSignalResult,
  type FlowView,
  readFlow,
} from './flow-view.js';
export { checkServiceToken, type TokenCheck } from './token-check.js';

import type { z } from 'zod';
import {
  anomalyEvalBody,
  anomalyLearnBody,
  createWorkspaceBody,
  type Dataspec,
  describeIssues,
  evalFlowBody,
  type FlowRecord,
  flowRecord,
  ID_PATTERN,
  listElements,
  liveModelFlowBody,
  type ModelRecord,
  modelRecord,
  moveModelBody,
  type WorkspaceRecord,
  workspaceRecord,
} from '../wire/index.js';
import { ServiceError, trimForDisplay } from './errors.js';
import { type Call, Transport } from './transport.js';

export interface ServiceClientOptions {
  baseUrl: string;
  accountId: string;
  token: string;
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
  maxAttempts?: number;
  maxRetryTimeMs?: number;
  /** First retry waits a random time up to this, doubling per attempt (default 250 ms). */
  retryBaseDelayMs?: number;
  /** Parallel connections (and requests in flight) to the service (default 128). */
  maxConnections?: number;
  /** Requests that may wait for a free connection; beyond that they fail at once as 'busy' (default 256). */
  maxQueued?: number;
  /** Longest wait for a free connection before failing as 'busy' (default 5 s). */
  maxQueueWaitMs?: number;
}

export interface EvalFlowInput {
  name: string;
  datastream: string;
  assessment: string;
  model: string;
  spec: {
    commonModelId: string;
    segments: { entities: string[]; timeRange: { startTime: string; endTime: string } }[];
    forLive: boolean;
    withEpisodes: boolean;
  };
}
export interface AnomalyLearnInput {
  name: string;
  description?: string;
  spec: { workspace: string; modelName?: string; dataspec: Dataspec };
}
export interface AnomalyLearnIncrementalInput {
  name: string;
  description?: string;
  spec: { model: string; workspace: string; dataspec: Dataspec };
}
export interface AnomalyEvalInput {
  name: string;
  description?: string;
  spec: {
    model: string;
    workspace: string;
    dataspec: Dataspec;
    outputsignalPrefix?: string;
    outputsignals?: { signal: string; name: string }[];
  };
}
export type GetFlowResult = { supported: true; flow: FlowRecord } | { supported: false };

export interface ServiceClient {
  createWorkspace(input: { name: string; description?: string }): Promise<WorkspaceRecord>;
  getWorkspace(workspaceId: string): Promise<WorkspaceRecord>;
  moveModel(modelId: string, workspaceId: string): Promise<ModelRecord>;
  findCommonModel(assessmentId: string): Promise<ModelRecord | null>;
  createEvalFlow(input: EvalFlowInput): Promise<FlowRecord>;
  startLiveModel(input: { name: string; model: string }): Promise<FlowRecord>;
  stopLiveModel(input: { name: string; model: string }): Promise<FlowRecord>;
  anomalyLearn(input: AnomalyLearnInput): Promise<FlowRecord>;
  anomalyLearnIncremental(input: AnomalyLearnIncrementalInput): Promise<FlowRecord>;
  anomalyEval(input: AnomalyEvalInput): Promise<FlowRecord>;
  getFlow(flowId: string): Promise<GetFlowResult>;
  close(): Promise<void>;
}

const FLOW_REFS = 'an object the flow refers to';

export function createServiceClient(o: ServiceClientOptions): ServiceClient {
  const account = checkId(o.accountId, 'account');
  const transport = new Transport({
    baseUrl: o.baseUrl,
    token: o.token,
    connectTimeoutMs: o.connectTimeoutMs ?? 5_000,
    requestTimeoutMs: o.requestTimeoutMs ?? 30_000,
    maxAttempts: o.maxAttempts ?? 4,
    maxRetryTimeMs: o.maxRetryTimeMs ?? 20_000,
    retryBaseDelayMs: o.retryBaseDelayMs ?? 250,
    maxConnections: o.maxConnections ?? 128,
    maxQueued: o.maxQueued ?? 256,
    maxQueueWaitMs: o.maxQueueWaitMs ?? 5_000,
  });
  const base = (version: '1.2' | '1.3') => `/api/${version}/accounts/${encodeURIComponent(account)}`;
  let getFlowUnsupported = false;

  async function call<T>(c: Call, schema: z.ZodType<T>): Promise<T> {
    const reply = await transport.send(c);
    return parseRecord(reply.body, schema, reply.status, c.method === 'POST');
  }

  async function postFlow(version: '1.2' | '1.3', schema: z.ZodType, body: unknown, label: string) {
    const checked = validate(schema, body, label);
    return call(
      { method: 'POST', path: `${base(version)}/flows`, body: checked, what: FLOW_REFS },
      flowRecord,
    );
  }

  return {
    async createWorkspace(input) {
      const body = validate(createWorkspaceBody, input, 'workspace');
      return call(
        { method: 'POST', path: `${base('1.3')}/workspace`, body, what: 'the account' },
        workspaceRecord,
      );
    },
    async getWorkspace(workspaceId) {
      const id = checkId(workspaceId, 'workspace');
      return call(
        {
          method: 'GET',
          path: `${base('1.3')}/workspace/${encodeURIComponent(id)}`,
          what: `workspace ${id}`,
        },
        workspaceRecord,
      );
    },
    async moveModel(modelId, workspaceId) {
      const id = checkId(modelId, 'model');
      const body = validate(moveModelBody, { workspace: workspaceId }, 'model move');
      return call(
        {
          method: 'PUT',
          path: `${base('1.3')}/models/${encodeURIComponent(id)}`,
          body,
          what: `model ${id} or workspace ${workspaceId}`,
        },
        modelRecord,
      );
    },
    async findCommonModel(assessmentId) {
      const id = checkId(assessmentId, 'assessment');
      const reply = await transport.send({
        method: 'GET',
        path: `${base('1.2')}/models`,
        query: { assessment: id, isCommonModel: 'true', limit: '1' },
        what: `assessment ${id}`,
      });
      const items = listElements(reply.body);
      if (items === null)
        throw new ServiceError('http', 'The service answered the model lookup with an unexpected shape.', {
          status: reply.status,
        });
      return items.length === 0 ? null : parseRecord(items[0], modelRecord, reply.status);
    },
    async createEvalFlow(input) {
      return postFlow('1.2', evalFlowBody, { flowType: 'EVAL', ...input }, 'EVAL flow');
    },
    async startLiveModel(input) {
      return postFlow('1.2', liveModelFlowBody, liveBody('STARTLIVEMODEL', input), 'STARTLIVEMODEL flow');
    },
    async stopLiveModel(input) {
      return postFlow('1.2', liveModelFlowBody, liveBody('STOPLIVEMODEL', input), 'STOPLIVEMODEL flow');
    },
    async anomalyLearn(input) {
      if (input.spec && 'model' in input.spec)
        throw invalid(
          'ANOMALYLEARN flow',
          'spec.model: not allowed here; use anomalyLearnIncremental for an existing model',
        );
      return postFlow('1.3', anomalyLearnBody, { flowType: 'ANOMALYLEARN', ...input }, 'ANOMALYLEARN flow');
    },
    async anomalyLearnIncremental(input) {
      if (!input.spec || typeof input.spec.model !== 'string')
        throw invalid('incremental ANOMALYLEARN flow', 'spec.model: required');
      return postFlow(
        '1.3',
        anomalyLearnBody,
        { flowType: 'ANOMALYLEARN', ...input },
        'incremental ANOMALYLEARN flow',
      );
    },
    async anomalyEval(input) {
      return postFlow('1.3', anomalyEvalBody, { flowType: 'ANOMALYEVAL', ...input }, 'ANOMALYEVAL flow');
    },
    async getFlow(flowId) {
      const id = checkId(flowId, 'flow');
      if (getFlowUnsupported) return { supported: false };
      try {
        const flow = await call(
          { method: 'GET', path: `${base('1.3')}/flows/${encodeURIComponent(id)}`, what: `flow ${id}` },
          flowRecord,
        );
        return { supported: true, flow };
      } catch (err) {
        // 404 naming the flow ID = the route exists and the flow does not; any other 404/405 = no such route.
        if (
          err instanceof ServiceError &&
          err.kind === 'http' &&
          (err.status === 404 || err.status === 405)
        ) {
          if (err.status === 404 && err.serviceMessage?.includes(id)) throw err;
          getFlowUnsupported = true;
          return { supported: false };
        }
        throw err;
      }
    },
    close: () => transport.close(),
  };
}

function liveBody(flowType: string, input: { name: string; model: string }) {
  return { flowType, name: input?.name, spec: { model: input?.model } };
}

function validate<T>(schema: z.ZodType<T>, body: unknown, label: string): T {
  const r = schema.safeParse(body);
  if (!r.success) throw invalid(label, describeIssues(r.error));
  return r.data;
}

function invalid(label: string, detail: string): ServiceError {
  return new ServiceError('invalid-request', `The ${label} was not sent because it is invalid: ${detail}.`);
}

function checkId(value: unknown, what: string): string {
  if (typeof value === 'string' && ID_PATTERN.test(value)) return value;
  const shown = typeof value === 'string' ? JSON.stringify(trimForDisplay(value, 40)) : typeof value;
  throw new ServiceError(
    'bad-id',
    `${shown} is not a valid ${what} ID: it must be 1 to 128 characters with no "/", spaces or control characters, e.g. "1353853719423311872".`,
  );
}

function parseRecord<T>(body: unknown, schema: z.ZodType<T>, status: number, created = false): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  throw new ServiceError(
    'http',
    created
      ? `The service accepted the request (HTTP ${status}) but its answer could not be read; check the service's Activity view for the result before trying again.`
      : `The service answered (HTTP ${status}) with a record the bot cannot read (no id).`,
    { status },
  );
}

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
import { CHECK_ACTIVITY_VIEW, redact, ServiceError, trimForDisplay } from './errors.js';
import { type FlowView, readFlow } from './flow-view.js';
import { type Call, type Reply, Transport } from './transport.js';

export interface ServiceClientOptions {
  baseUrl: string;
  accountId: string;
  /** The bot's shared token (TSAI_TOKEN); absent: calls are made only through `as(token)`. */
  token?: string;
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

/** Where the service is, for a call made with a token other than the client's. */
export type ClientOptionsForCheck = Pick<ServiceClientOptions, 'baseUrl' | 'accountId' | 'connectTimeoutMs'>;

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
/**
 * `supported: false`: the service has no flow read-back route (404 "no route" or 405), so the flow can only
 * be followed in the service's Activity view. Otherwise `flow` is the record as sent and `view` the client's
 * tolerant reading of its status, reason and results.
 */
export type GetFlowResult = { supported: true; flow: FlowRecord; view: FlowView } | { supported: false };

/** The service's calls, made with one identity. */
export interface ServiceCalls {
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
}

/**
 * The client: its calls use the shared token; `as(token)` makes the same calls with a person's own token,
 * over the same connections, limiter and retry policy.
 */
export interface ServiceClient extends ServiceCalls {
  as(token: string): ServiceCalls;
  close(): Promise<void>;
}

const FLOW_REFS = 'an object the flow refers to';

/** The client's defaults: the same as the bot's configuration (a config test keeps them so). */
export const CLIENT_DEFAULTS = {
  connectTimeoutMs: 5_000,
  requestTimeoutMs: 15_000,
  maxAttempts: 3,
  maxRetryTimeMs: 20_000,
  maxQueued: 256,
} as const;

export function createServiceClient(o: ServiceClientOptions): ServiceClient {
  const account = checkId(o.accountId, 'account');
  const transport = new Transport({
    baseUrl: o.baseUrl,
    ...(o.token !== undefined ? { token: o.token } : {}),
    connectTimeoutMs: o.connectTimeoutMs ?? CLIENT_DEFAULTS.connectTimeoutMs,
    requestTimeoutMs: o.requestTimeoutMs ?? CLIENT_DEFAULTS.requestTimeoutMs,
    maxAttempts: o.maxAttempts ?? CLIENT_DEFAULTS.maxAttempts,
    maxRetryTimeMs: o.maxRetryTimeMs ?? CLIENT_DEFAULTS.maxRetryTimeMs,
    retryBaseDelayMs: o.retryBaseDelayMs ?? 250,
    maxConnections: o.maxConnections ?? 128,
    maxQueued: o.maxQueued ?? CLIENT_DEFAULTS.maxQueued,
    maxQueueWaitMs: o.maxQueueWaitMs ?? 5_000,
  });
  const base = (version: '1.2' | '1.3') => `/api/${version}/accounts/${encodeURIComponent(account)}`;
  const readBack = { unsupported: false };
  const callsWith = (token: string | undefined) =>
    serviceCalls({ transport, base, readBack, ...(token !== undefined ? { token } : {}) });
  return {
    ...callsWith(o.token),
    as: (token) => callsWith(token),
    close: () => transport.close(),
  };
}

interface CallsContext {
  transport: Transport;
  base: (version: '1.2' | '1.3') => string;
  /** Shared by every identity: whether the service showed it has no flow read-back route. */
  readBack: { unsupported: boolean };
  token?: string;
}

/** Every call, each request carrying `token` (the shared one when absent). */
function serviceCalls({ transport, base, readBack, token }: CallsContext): ServiceCalls {
  const withToken = (c: Call): Call => (token !== undefined ? { ...c, token } : c);

  async function call<T>(c: Call, schema: z.ZodType<T>): Promise<T> {
    const reply = await transport.send(withToken(c));
    return parseRecord(reply, schema, c);
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
      const c: Call = {
        method: 'GET',
        path: `${base('1.2')}/models`,
        query: { assessment: id, isCommonModel: 'true', limit: '1' },
        what: `assessment ${id}`,
      };
      const reply = await transport.send(withToken(c));
      const items = reply.unreadable === undefined ? listElements(reply.body) : null;
      if (items === null) throw unreadable(reply, c, reply.unreadable ?? 'not a list of models');
      return items.length === 0 ? null : parseRecord({ ...reply, body: items[0] }, modelRecord, c);
    },
    ...flowCreators(postFlow),
    getFlow: flowReader((c) => transport.send(withToken(c)), base('1.3'), readBack, token ?? ''),
  };
}

type PostFlow = (
  version: '1.2' | '1.3',
  schema: z.ZodType,
  body: unknown,
  label: string,
) => Promise<FlowRecord>;

/** The calls that start a flow, each checking its body against the service's schema before sending. */
function flowCreators(
  postFlow: PostFlow,
): Pick<
  ServiceCalls,
  | 'createEvalFlow'
  | 'startLiveModel'
  | 'stopLiveModel'
  | 'anomalyLearn'
  | 'anomalyLearnIncremental'
  | 'anomalyEval'
> {
  return {
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
  };
}

/**
 * Reads a flow back; once the service shows it has no read-back route, later reads answer unsupported
 * without asking again.
 */
function flowReader(
  send: (c: Call) => Promise<Reply>,
  accountPath: string,
  readBack: { unsupported: boolean },
  token: string,
): ServiceCalls['getFlow'] {
  return async (flowId) => {
    const id = checkId(flowId, 'flow');
    if (readBack.unsupported) return { supported: false };
    const c: Call = {
      method: 'GET',
      path: `${accountPath}/flows/${encodeURIComponent(id)}`,
      what: `flow ${id}`,
    };
    let reply: Reply;
    try {
      reply = await send(c);
    } catch (err) {
      if (isMissingRoute(err, id)) {
        readBack.unsupported = true;
        return { supported: false };
      }
      throw err;
    }
    const raw = unwrapFlow(reply.body);
    const flow = parseRecord({ ...reply, body: raw }, flowRecord, c);
    // The view reads the raw record, so a status of an unexpected type is still shown as sent.
    const view = readFlow({ ...(raw as Record<string, unknown>), id: flow.id }, (t) => redact(t, token));
    return { supported: true, flow, view };
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

function parseRecord<T>(reply: Reply, schema: z.ZodType<T>, c: Call): T {
  if (reply.unreadable !== undefined) throw unreadable(reply, c, reply.unreadable);
  const r = schema.safeParse(reply.body);
  if (r.success) return r.data;
  throw unreadable(reply, c, reply.body === undefined ? 'an empty answer' : 'not a record with an id');
}

/**
 * A success status whose answer cannot be used. A POST then created something the bot cannot name, so its
 * outcome is unknown; a GET changed nothing; a PUT probably took effect and is safe to repeat.
 */
function unreadable(reply: Reply, c: Call, why: string): ServiceError {
  const status = reply.status;
  if (c.method === 'POST')
    return new ServiceError(
      'outcome-unknown',
      `The service accepted the request (HTTP ${status}) but the bot cannot read its answer (${why}), so it may have created something the bot cannot name; ${CHECK_ACTIVITY_VIEW}.`,
      { status },
    );
  return new ServiceError(
    'bad-response',
    c.method === 'PUT'
      ? `The service answered (HTTP ${status}) but the bot cannot read its answer (${why}), so it cannot confirm the change; it has probably been made, and repeating it is safe.`
      : `The service answered (HTTP ${status}) but the bot cannot read its answer (${why}); nothing was changed, so trying again later is safe.`,
    { status },
  );
}

/** A record that has no id of its own but wraps one under `flow` or `data` is read as that one. */
function unwrapFlow(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body) || 'id' in body) return body;
  for (const key of ['flow', 'data', 'item']) {
    const inner = (body as Record<string, unknown>)[key];
    if (inner && typeof inner === 'object' && 'id' in inner) return inner;
  }
  return body;
}

/**
 * 405, or a 404 that does not name the flow, means the service has no read-back route. A 404 naming the flow
 * ID (not as part of a path, e.g. "flow 1400… not found") means the route exists and the flow does not.
 */
function isMissingRoute(err: unknown, id: string): boolean {
  if (!(err instanceof ServiceError) || err.kind !== 'http') return false;
  if (err.status === 405) return true;
  if (err.status !== 404) return false;
  const said = err.serviceMessage ?? '';
  if (/\bno route\b|\bno handler\b|\bcannot get\b/i.test(said)) return true;
  for (let i = said.indexOf(id); i >= 0; i = said.indexOf(id, i + 1)) if (said[i - 1] !== '/') return false;
  return true;
}

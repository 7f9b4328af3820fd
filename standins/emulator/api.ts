import type { z } from 'zod';
import { createWorkspaceBody, describeIssues, moveModelBody } from '../../src/wire/index.js';
import { knownAssessment } from './assessments.js';
import type { ApiReply, ApiRequest } from './exchange.js';
import { flowTypeOf, flowTypesAt } from './flow-types.js';
import { Refusal } from './flows.js';
import type { Role } from './people.js';
import type { Rec } from './seed.js';
import type { Store } from './store.js';

type Handler = (req: ApiRequest, store: Store, onFlow: (flow: Rec) => void) => ApiReply;
export interface Route {
  version: '1.2' | '1.3';
  method: string;
  /** Path after /accounts/{account}/, ':x' segments are parameters. */
  pattern: string[];
  handle: Handler;
  /** An emulator extension that can be switched off (then the route does not exist). */
  feature?: 'flowReadBack';
  /** The least role the request needs, and what a refusal calls it; any role (User) when absent. */
  needs?: (body: unknown) => Need | undefined;
  /**
   * Whether a body is this route's, when another route shares its method and path (two operations on
   * one resource: a move and a rename of a model); absent: every body.
   */
  accepts?: (body: unknown) => boolean;
  /** A route the spec does not document: why the emulator has it (docs/api-and-emulator.md lists them). */
  extension?: string;
}
export interface Need {
  role: Role;
  doing: string;
}

/** What creating a flow needs: its flow type's role (live start and stop), else any. */
const flowNeeds = (body: unknown): Need | undefined =>
  flowTypeOf((body as { flowType?: unknown } | null)?.flowType)?.needs;

const msg = (status: number, message: string): ApiReply => ({ status, body: { message } });

function parse<T>(schema: z.ZodType<T>, body: unknown): T | ApiReply {
  const r = schema.safeParse(body);
  return r.success ? r.data : msg(400, describeIssues(r.error));
}
const isReply = (v: unknown): v is ApiReply =>
  typeof v === 'object' &&
  v !== null &&
  'status' in v &&
  typeof (v as ApiReply).status === 'number' &&
  'body' in v;

/** The `offset` and `limit` of a list request (default 0 and 100). */
function pageOf(q: URLSearchParams): { offset: number; limit: number } | ApiReply {
  const limitText = q.get('limit') ?? '100';
  const offsetText = q.get('offset') ?? '0';
  if (!/^[1-9]\d{0,3}$/.test(limitText)) return msg(400, 'limit: must be an integer from 1 to 9999');
  if (!/^\d{1,6}$/.test(offsetText)) return msg(400, 'offset: must be a non-negative integer');
  return { offset: Number(offsetText), limit: Number(limitText) };
}

const page = (all: Rec[], { offset, limit }: { offset: number; limit: number }) => ({
  items: all.slice(offset, offset + limit),
  offset,
  limit,
  total: all.length,
});

function createFlow(version: '1.2' | '1.3'): Handler {
  return (req, store, onFlow) => {
    const allowed = flowTypesAt(version);
    const flowType = (req.body as { flowType?: unknown } | null)?.flowType;
    const type =
      typeof flowType === 'string' && allowed.includes(flowType) ? flowTypeOf(flowType) : undefined;
    if (!type)
      return msg(
        400,
        `flowType: must be one of ${allowed.join(', ')} at /api/${version} (got ${JSON.stringify(flowType ?? null)})`,
      );
    const body = parse(type.body, req.body);
    if (isReply(body)) return body;
    try {
      type.check(store, body);
    } catch (e) {
      if (e instanceof Refusal) return msg(e.status, e.message);
      throw e;
    }
    const flow = store.create('flows', {
      type: 'entities.flow',
      status: 'CREATED',
      ...body,
      ...type.record?.(body),
    });
    onFlow(flow);
    return { status: 201, body: flow };
  };
}

export const ROUTES: Route[] = [
  {
    version: '1.3',
    method: 'POST',
    pattern: ['workspace'],
    handle: (req, store) => {
      const body = parse(createWorkspaceBody, req.body);
      if (isReply(body)) return body;
      return { status: 201, body: store.create('workspaces', { type: 'entities.workspace', ...body }) };
    },
  },
  {
    version: '1.3',
    method: 'GET',
    pattern: ['workspace'],
    extension:
      'the spec documents no list of workspaces, but a list with `limit=1` is the cheapest authenticated read, the one that tells whether a token works (200, 401 or 403)',
    handle: (req, store) => {
      const range = pageOf(req.query);
      return isReply(range) ? range : { status: 200, body: page(store.all('workspaces'), range) };
    },
  },
  {
    version: '1.3',
    method: 'GET',
    pattern: ['workspace', ':id'],
    handle: (req, store) => {
      const ws = store.get('workspaces', req.rest[1]!);
      return ws ? { status: 200, body: ws } : msg(404, `workspace ${req.rest[1]} not found`);
    },
  },
  {
    version: '1.3',
    method: 'PUT',
    pattern: ['models', ':id'],
    needs: () => ({ role: 'Manager', doing: 'Moving a model to another workspace' }),
    accepts: (body) => typeof body === 'object' && body !== null && 'workspace' in body,
    handle: (req, store) => {
      const id = req.rest[1]!;
      if (!store.get('models', id)) return msg(404, `model ${id} not found`);
      const body = parse(moveModelBody, req.body);
      if (isReply(body)) return body;
      if (!store.get('workspaces', body.workspace)) return msg(404, `workspace ${body.workspace} not found`);
      return { status: 200, body: store.update('models', id, { workspace: body.workspace }) };
    },
  },
  {
    version: '1.2',
    method: 'GET',
    pattern: ['models'],
    handle: (req, store) => {
      const q = req.query;
      const assessment = q.get('assessment');
      if (!assessment) return msg(400, 'assessment: query parameter is required');
      const common = q.get('isCommonModel');
      if (common !== null && common !== 'true' && common !== 'false')
        return msg(400, 'isCommonModel: must be true or false');
      const range = pageOf(q);
      if (isReply(range)) return range;
      if (!knownAssessment(store, assessment)) return msg(404, `assessment ${assessment} not found`);
      const all = store
        .all('models')
        .filter(
          (m) => m.assessment === assessment && (common === null || m.isCommonModel === (common === 'true')),
        );
      return { status: 200, body: page(all, range) };
    },
  },
  { version: '1.2', method: 'POST', pattern: ['flows'], handle: createFlow('1.2'), needs: flowNeeds },
  { version: '1.3', method: 'POST', pattern: ['flows'], handle: createFlow('1.3'), needs: flowNeeds },
  {
    version: '1.3',
    method: 'GET',
    pattern: ['flows', ':id'],
    feature: 'flowReadBack',
    extension:
      'the spec documents no way to read a flow back; a public script reads one, so the bot follows flows with it, feature-detected (`flowReadBack` switches it off)',
    handle: (req, store) => {
      const flow = store.get('flows', req.rest[1]!);
      return flow ? { status: 200, body: flow } : msg(404, `flow ${req.rest[1]} not found`);
    },
  },
];

/**
 * The route that takes a request: of those that match its path, the first with its method that accepts
 * its body, else the first with its method (whose checks then say what is wrong with the body).
 */
export function routeFor(routes: readonly Route[], method: string, body: unknown): Route | undefined {
  const withMethod = routes.filter((r) => r.method === method);
  return withMethod.find((r) => r.accepts?.(body) ?? true) ?? withMethod[0];
}

/** Routes whose version and shape match; an empty result is a 404, a method mismatch a 405. */
export function matchRoutes(version: string, rest: string[]): Route[] {
  return ROUTES.filter(
    (r) =>
      r.version === version &&
      r.pattern.length === rest.length &&
      r.pattern.every((p, i) => p.startsWith(':') || p === rest[i]),
  );
}

import { z } from 'zod';
import { describeIssues } from '../../src/wire/index.js';

export const faultSpec = z
  .strictObject({
    /** HTTP method to match (any when absent). */
    method: z.string().optional(),
    /** Regular expression tested against the request path (any when absent). */
    path: z.string().optional(),
    /** Regular expression tested against the raw query string, without the `?` (any when absent). */
    query: z.string().optional(),
    /** Regular expression tested against the raw request body, e.g. a flow's name (any when absent). */
    requestBody: z.string().optional(),
    /** How many matching requests the fault applies to, then it is spent (unlimited when absent). */
    count: z.number().int().positive().optional(),
    /** Probability in 0..1 that a matching request is hit (default 1: deterministic). */
    rate: z.number().min(0).max(1).optional(),
    /** Delay before anything else happens. */
    latencyMs: z.number().int().min(0).max(120_000).optional(),
    /** Answer with this status instead of handling the request (a 2xx makes a canned reply). */
    status: z.number().int().min(200).max(599).optional(),
    /** `{"message": ...}` of the injected reply. */
    message: z.string().optional(),
    /** Raw body of the injected reply instead of `{"message"}`, sent as is (e.g. non-JSON text, unquoted big IDs). */
    body: z.string().optional(),
    /** Retry-After header value sent with `status`. */
    retryAfter: z.union([z.string(), z.number().int().min(0)]).optional(),
    /** Content-Type of `body` (default text/plain). */
    contentType: z.string().optional(),
    /** Destroy the connection: 'before' handling (nothing happens), or 'after' handling (the effect happens, the reply is lost). */
    reset: z.enum(['before', 'after']).optional(),
    /**
     * Handle the request (the effect happens), then spoil the reply, keeping its status: 'malformed-json'
     * cuts the JSON short, 'wrong-shape' sends `{"ok":true}`, 'non-json' sends an HTML page.
     */
    corrupt: z.enum(['malformed-json', 'wrong-shape', 'non-json']).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.status === undefined)
      for (const key of ['message', 'body', 'contentType', 'retryAfter'] as const)
        if (f[key] !== undefined)
          ctx.addIssue({ code: 'custom', path: [key], message: 'only applies with status' });
    if (f.corrupt !== undefined && (f.status !== undefined || f.reset !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['corrupt'],
        message: 'spoils the handled reply, so it cannot be combined with status or reset',
      });
  });
export type FaultSpec = z.infer<typeof faultSpec>;

interface Fault {
  id: number;
  spec: FaultSpec;
  /** `path`, `query` and `requestBody`, compiled. */
  match: { path?: RegExp; query?: RegExp; body?: RegExp };
  remaining: number;
  hits: number;
}

/** What a fault can match a request by. */
export interface FaultTarget {
  method: string;
  path: string;
  /** The raw query string, without the `?`. */
  query: string;
  /** The raw request body. */
  body: string;
}

export class Faults {
  private list: Fault[] = [];
  private nextId = 1;

  add(input: unknown): { ok: true; id: number } | { ok: false; message: string } {
    const r = faultSpec.safeParse(input);
    if (!r.success) return { ok: false, message: describeIssues(r.error) };
    const match: Fault['match'] = {};
    for (const [key, field] of [
      ['path', 'path'],
      ['query', 'query'],
      ['body', 'requestBody'],
    ] as const) {
      const source = r.data[field];
      if (source === undefined) continue;
      try {
        match[key] = new RegExp(source);
      } catch {
        return { ok: false, message: `${field}: not a valid regular expression` };
      }
    }
    const fault = { id: this.nextId++, spec: r.data, match, remaining: r.data.count ?? Infinity, hits: 0 };
    this.list.push(fault);
    return { ok: true, id: fault.id };
  }

  /** The first live fault matching the request, consuming one of its count; undefined when none hits. */
  take(request: FaultTarget): FaultSpec | undefined {
    for (const f of this.list) {
      if (f.remaining <= 0) continue;
      if (f.spec.method && f.spec.method.toUpperCase() !== request.method) continue;
      if (f.match.path && !f.match.path.test(request.path)) continue;
      if (f.match.query && !f.match.query.test(request.query)) continue;
      if (f.match.body && !f.match.body.test(request.body)) continue;
      if (Math.random() >= (f.spec.rate ?? 1)) continue;
      f.remaining--;
      f.hits++;
      return f.spec;
    }
    return undefined;
  }

  describe() {
    return this.list.map((f) => ({
      id: f.id,
      ...f.spec,
      hits: f.hits,
      remaining: f.remaining === Infinity ? null : f.remaining,
    }));
  }

  clear(): void {
    this.list = [];
  }
}

import { z } from 'zod';

/** The pseudo-method under which faults of response_url posts are injected. */
export const RESPONSE_URL = 'response_url';

/** Platform errors the bot has to handle; any other lower_snake_case code can be injected too. */
export const PLATFORM_ERRORS = [
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'invalid_auth',
  'token_revoked',
  'account_inactive',
  'expired_trigger_id',
  'msg_too_long',
  'invalid_blocks',
] as const;

const faultSpec = z
  .strictObject({
    /** A Web API method (`chat.postMessage`), `*` for every Web API method, or `response_url`. */
    method: z
      .string()
      .regex(/^(\*|response_url|[a-z]+(\.[a-zA-Z]+)+)$/, 'a Web API method, * or response_url'),
    /** Only calls whose `channel` argument (for response_url: the channel it answers in) is this. */
    channel: z.string().min(1).optional(),
    /**
     * Only calls for this user: `user_id` (views.publish) or `user` (chat.postEphemeral) argument, a DM
     * posted to their ID, or, for response_url, the user it answers.
     */
    user: z.string().min(1).optional(),
    /** How many matching calls fail (default 1), or `always` until cleared. */
    times: z.union([z.number().int().positive(), z.literal('always')]).optional(),
    /** Slack's error code: with HTTP 200 `{ok:false,error}` for Web API methods, or the body of `status`. */
    error: z
      .string()
      .regex(/^[a-z][a-z0-9_]*$/, "Slack's lower_snake_case error code")
      .optional(),
    /** An HTTP status instead of 200: 429 (with Retry-After) or 5xx; for response_url any 4xx/5xx. */
    status: z.number().int().min(400).max(599).optional(),
    /** Seconds, sent as Retry-After with a 429 (default 1). */
    retryAfter: z.number().int().min(0).optional(),
  })
  .refine((f) => f.error !== undefined || f.status !== undefined, 'give an error, a status, or both')
  .refine(
    (f) => f.method === RESPONSE_URL || f.status === undefined || f.status === 429 || f.status >= 500,
    'the Web API answers only 200, 429 or 5xx',
  )
  .refine((f) => f.retryAfter === undefined || f.status === 429, 'retryAfter goes with status 429');

export type FaultSpec = z.infer<typeof faultSpec>;

export interface InjectedFault extends FaultSpec {
  id: number;
  /** Calls this fault has failed so far. */
  hits: number;
  /** Calls it will still fail, or `always`. */
  remaining: number | 'always';
}

/** What a hit fault makes the stand-in answer. */
export interface FaultAnswer {
  id: number;
  status: number;
  body: { ok: false; error: string };
  headers: Record<string, string>;
}

export function parseFaultSpec(input: unknown): FaultSpec {
  const r = faultSpec.safeParse(input);
  if (r.success) return r.data;
  const why = r.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  throw new Error(`invalid fault: ${why.join('; ')}`);
}

function answerOf(f: InjectedFault): Omit<FaultAnswer, 'id'> {
  const status = f.status ?? 200;
  if (status === 429)
    return {
      status,
      body: { ok: false, error: f.error ?? 'ratelimited' },
      headers: { 'retry-after': String(f.retryAfter ?? 1) },
    };
  const fallback = f.method === RESPONSE_URL && status === 404 ? 'expired_url' : 'internal_error';
  return { status, body: { ok: false, error: f.error ?? fallback }, headers: {} };
}

/** Injected failures, tried in the order they were added; the first live match answers the call. */
export class Faults {
  private list: InjectedFault[] = [];
  private nextId = 1;

  add(input: unknown): InjectedFault {
    const spec = parseFaultSpec(input);
    const f: InjectedFault = { ...spec, id: this.nextId++, hits: 0, remaining: spec.times ?? 1 };
    this.list.push(f);
    return { ...f };
  }

  /** Consumes one use of the first fault matching the call; undefined when none does. */
  take(method: string, channel: unknown, user?: unknown): FaultAnswer | undefined {
    const f = this.list.find(
      (x) =>
        (x.method === method || (x.method === '*' && method !== RESPONSE_URL)) &&
        (x.channel === undefined || x.channel === channel) &&
        (x.user === undefined || x.user === user),
    );
    if (!f) return undefined;
    f.hits++;
    if (f.remaining !== 'always') {
      f.remaining--;
      if (f.remaining === 0) this.list = this.list.filter((x) => x !== f);
    }
    return { id: f.id, ...answerOf(f) };
  }

  describe(): InjectedFault[] {
    return this.list.map((f) => ({ ...f }));
  }

  /** Removes every fault, or those with this id or method. Returns how many were removed. */
  clear(filter: { id?: number; method?: string } = {}): number {
    const before = this.list.length;
    this.list = this.list.filter(
      (f) =>
        (filter.id !== undefined && f.id !== filter.id) ||
        (filter.method !== undefined && f.method !== filter.method),
    );
    return before - this.list.length;
  }
}

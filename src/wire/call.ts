import type { z } from 'zod';

/** The HTTP methods the service's calls use. A POST is never retried once it may have been sent. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The API versions the service serves; each call is made at the version that serves it. */
export type ApiVersion = '1.2' | '1.3';

/**
 * How a call's answer is read: as one record (`record`), or as the first element of a list, `null` when
 * the list is empty (`firstOf`). A 2xx answer that does not fit is unreadable, never guessed at.
 */
export type AnswerSchema<Answer> =
  | { record: z.ZodType<Answer> }
  | { firstOf: z.ZodType<NonNullable<Answer>>; listOf: string };

/**
 * One call of the service's API, as data: what a registry entry declares, and what the one generic
 * client call (`ServiceCalls.call`) sends and reads. Its body is checked against its schema before it is
 * sent, and the emulator checks what it receives against the same schema, so the two cannot drift.
 *
 * `path`, `query`, `label` and `what` may hold `{name}` placeholders, filled from the call's `ids` (each checked as
 * a service ID first, and refused as `bad-id` otherwise); `what` may also name the body's top-level
 * fields.
 */
export interface WireCall<Body, Answer> {
  method: HttpMethod;
  version: ApiVersion;
  /** Under the account: `/workspace/{workspace}`, `/flows`. */
  path: string;
  query?: Readonly<Record<string, string>>;
  /** What the body is called when it is refused before sending: `{flowType} flow`, `workspace`. */
  label: string;
  /** What a 404 or an unreadable answer is about: `workspace {workspace}`, `an object the flow refers to`. */
  what: string;
  /**
   * Its body's schema (strict; absent: the call sends no body) and how its answer is read, loaded on the
   * first call: the acking thread reads the registry for every command, and never loads the schemas.
   */
  schemas(): Promise<WireSchemas<Body, Answer>>;
}

export interface WireSchemas<Body, Answer> {
  body?: z.ZodType<Body>;
  answer: AnswerSchema<Answer>;
}

/** A call's schemas, loaded once, on first use. */
export function lazySchemas<Body, Answer>(
  load: () => Promise<WireSchemas<Body, Answer>>,
): () => Promise<WireSchemas<Body, Answer>> {
  let loaded: Promise<WireSchemas<Body, Answer>> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}

/** What one call is given: the IDs its path names, and its body. */
export interface CallInput<Body> {
  ids?: Readonly<Record<string, string>>;
  body?: Body;
}

/** The body of a call, and the answer it reads. */
export type BodyOf<C> = C extends WireCall<infer B, unknown> ? B : never;
export type AnswerOf<C> = C extends WireCall<never, infer A> ? A : never;

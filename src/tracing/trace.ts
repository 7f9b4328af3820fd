// What every layer calls to trace its part of a request, as the metrics are counted where the work is
// (docs/tracing.md). The OpenTelemetry API is handed over by start.ts once this thread's tracer is
// registered; until then (and always, when no OTEL_* variable is set) each call is one test of a variable
// and nothing of OpenTelemetry is loaded. Attributes hold IDs and the bot's own words only: never a token,
// a person's name or anything typed.
import type * as Api from '@opentelemetry/api';

let api: typeof Api | undefined;
let tracer: Api.Tracer | undefined;

/** The API and tracer of this thread, once its tracer provider is registered (start.ts); undefined: off. */
export function useTracing(given: typeof Api | undefined): void {
  api = given;
  tracer = given?.trace.getTracer('tsai-chatops');
}

export function tracingOn(): boolean {
  return tracer !== undefined;
}

/** A span's context as plain data (W3C Trace Context), to cross a thread or be kept in the store. */
export interface Carried {
  traceparent: string;
  tracestate?: string;
}

export type Attributes = Record<string, string | number | boolean | undefined>;

/** What a traced piece of work may say of itself while it runs. */
export interface SpanNotes {
  set(attributes: Attributes): void;
  /** The work failed: `type` (a code, a class of error) and a message in the bot's own words. */
  failed(type: string, message: string): void;
}

const UNTRACED: SpanNotes = { set() {}, failed() {} };

export interface SpanOptions {
  kind?: 'server' | 'client' | 'internal' | 'consumer';
  /** The span's parent, kept elsewhere (a job's, a followed flow's); default the active span. */
  parent?: Carried | undefined;
  /** A trace of its own, linked to these (a flow's reads, a schedule's runs, to their request). */
  root?: true;
  links?: readonly (Carried | undefined)[];
  /**
   * Only as part of a trace already under way (a call made for a request, a round's step); outside one
   * (a timer's own query) `work` runs alone, so background loops make no traces of their own.
   */
  inTraceOnly?: true;
}

/**
 * Runs `work` in a span named `name`, a child of the active span unless told otherwise; a failure
 * (thrown) marks the span an error by its class, never by its message, which may quote what was typed.
 * Off: `work` alone.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: SpanNotes) => T,
  o: SpanOptions = {},
): T {
  if (!api || !tracer) return work(UNTRACED);
  const a = api;
  if (o.inTraceOnly && !a.trace.getSpan(a.context.active())?.isRecording()) return work(UNTRACED);
  const parent = o.root ? a.ROOT_CONTEXT : o.parent ? contextOf(a, o.parent) : a.context.active();
  const links = (o.links ?? [])
    .map((c) => (c ? a.trace.getSpanContext(contextOf(a, c)) : undefined))
    .filter((c): c is Api.SpanContext => c !== undefined && a.trace.isSpanContextValid(c))
    .map((context) => ({ context }));
  const span = tracer.startSpan(
    name,
    { kind: KINDS[o.kind ?? 'internal'], attributes: defined(attributes), links },
    parent,
  );
  let failed = false;
  const notes: SpanNotes = {
    set: (more) => span.setAttributes(defined(more)),
    failed(type, message) {
      failed = true;
      span.setAttribute('error.type', type);
      span.setStatus({ code: a.SpanStatusCode.ERROR, message });
    },
  };
  const thrown = (e: unknown) => {
    if (!failed) notes.failed(errorType(e), `failed: ${errorType(e)}`);
    span.end();
    throw e;
  };
  let result: T;
  try {
    result = a.context.with(a.trace.setSpan(parent, span), () => work(notes));
  } catch (e) {
    return thrown(e);
  }
  if (result instanceof Promise)
    return result.then((v) => {
      span.end();
      return v;
    }, thrown) as T;
  span.end();
  return result;
}

/** The active span's context as plain data; undefined when none is recorded (off, or not sampled). */
export function carried(): Carried | undefined {
  if (!api) return undefined;
  const out: Partial<Carried> = {};
  api.propagation.inject(api.context.active(), out);
  return out.traceparent ? (out as Carried) : undefined;
}

/** The active span's `traceparent`, for a record that outlives the request (a followed flow, a schedule). */
export function traceParentNow(): { traceParent?: string } {
  const c = carried();
  return c ? { traceParent: c.traceparent } : {};
}

/** A kept `traceparent` as a parent or a link. */
export function keptTrace(traceParent: string | null | undefined): Carried | undefined {
  return traceParent ? { traceparent: traceParent } : undefined;
}

/** The headers that carry the active span to a service that traces (W3C `traceparent`); none when off. */
export function traceHeaders(): Record<string, string> {
  const c = carried();
  return c ? { ...c } : {};
}

/**
 * The IDs of the active span, for a log line (pino's mixin, which merges the line into what it returns:
 * a new object each time); none when off or outside a span.
 */
export function logFields(): { trace_id?: string; span_id?: string } {
  if (!api) return {};
  const c = api.trace.getSpanContext(api.context.active());
  return c && api.trace.isSpanContextValid(c) ? { trace_id: c.traceId, span_id: c.spanId } : {};
}

/** A kept context read back (a job's, a row's): a malformed one is no parent. */
function contextOf(a: typeof Api, c: Carried): Api.Context {
  return a.propagation.extract(a.ROOT_CONTEXT, c);
}

const KINDS = { server: 1, client: 2, internal: 0, consumer: 4 } as const;

function defined(attributes: Attributes): Api.Attributes {
  const out: Api.Attributes = {};
  for (const [k, v] of Object.entries(attributes)) if (v !== undefined) out[k] = v;
  return out;
}

/** What failed, by its class and code (`ServiceError timeout`), never its message. */
export function errorType(e: unknown): string {
  if (!(e instanceof Error)) return typeof e;
  const code = (e as { kind?: unknown; code?: unknown }).kind ?? (e as { code?: unknown }).code;
  return typeof code === 'string' && /^[\w.:-]{1,60}$/.test(code) ? `${e.name} ${code}` : e.name;
}

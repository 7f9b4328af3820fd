// A stand-in for an OpenTelemetry Collector's OTLP/HTTP receiver, over real HTTP: what the tests read the
// bot's traces from, and where the bench sends them. It takes `POST /v1/traces` in both encodings the bot
// can send: JSON (`http/json`) is read span by span; protobuf (`http/protobuf`, the default) is taken and
// counted without being read, which is all the bench needs of it.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type AttributeValue = string | number | boolean;

/** One span as the receiver read it from an export in JSON. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Absent for the root span of a trace. */
  parentSpanId?: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startNanos: bigint;
  endNanos: bigint;
  attributes: Record<string, AttributeValue>;
  links: { traceId: string; spanId: string }[];
  /** OTLP's numbers: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  /** The attributes of the process that sent it (service.name, …). */
  resource: Record<string, AttributeValue>;
}

export interface OtlpReceiver {
  /** What to set OTEL_EXPORTER_OTLP_ENDPOINT to. */
  endpoint: string;
  /** Every span read so far, in the order received. */
  spans(): ReceivedSpan[];
  /** Exports taken, of either encoding, and their bytes. */
  exports(): { json: number; protobuf: number; bytes: number };
  /** The headers of the last export (a collector's API key is checked by it). */
  lastHeaders(): Record<string, string | string[] | undefined> | undefined;
  /** Resolves with what `find` returns once it returns something, from spans received by then or later. */
  waitFor<T>(find: (spans: ReceivedSpan[]) => T | undefined, boundMs: number, what: string): Promise<T>;
  close(): Promise<void>;
}

const MAX_BODY = 16 * 1024 * 1024;

export async function startOtlpReceiver(o: { host?: string; port?: number } = {}): Promise<OtlpReceiver> {
  const received: ReceivedSpan[] = [];
  const counts = { json: 0, protobuf: 0, bytes: 0 };
  let headers: Record<string, string | string[] | undefined> | undefined;
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const body = await readBody(req);
      if (body === undefined) {
        res.writeHead(413).end();
        return;
      }
      headers = { ...req.headers };
      counts.bytes += body.length;
      const type = req.headers['content-type'] ?? '';
      if (type.startsWith('application/json')) {
        counts.json++;
        try {
          received.push(...spansOf(JSON.parse(body.toString('utf8')) as ExportRequest));
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"not OTLP JSON"}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else if (type.startsWith('application/x-protobuf')) {
        counts.protobuf++;
        // An empty ExportTraceServiceResponse.
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      } else {
        res.writeHead(415).end();
        return;
      }
      for (const w of waiters) w();
    })();
  });
  await new Promise<void>((ok) => server.listen(o.port ?? 0, o.host ?? '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans: () => [...received],
    exports: () => ({ ...counts }),
    lastHeaders: () => headers,
    waitFor(find, boundMs, what) {
      return new Promise((ok, fail) => {
        const check = () => {
          const found = find([...received]);
          if (found === undefined) return;
          done();
          ok(found);
        };
        const timer = setTimeout(() => {
          done();
          fail(
            new Error(`the OTLP receiver never got ${what} within ${boundMs} ms (${received.length} spans)`),
          );
        }, boundMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

type JsonValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
};
type JsonAttribute = { key: string; value: JsonValue };
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: JsonAttribute[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number; message?: string };
}
interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: JsonAttribute[] };
    scopeSpans?: { spans?: JsonSpan[] }[];
  }[];
}

function spansOf(request: ExportRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((rs) => {
    const resource = attributesOf(rs.resource?.attributes);
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map(
        (s): ReceivedSpan => ({
          traceId: s.traceId,
          spanId: s.spanId,
          ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
          name: s.name,
          kind: s.kind,
          startNanos: BigInt(s.startTimeUnixNano),
          endNanos: BigInt(s.endTimeUnixNano),
          attributes: attributesOf(s.attributes),
          links: (s.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
          status: {
            code: s.status?.code ?? 0,
            ...(s.status?.message ? { message: s.status.message } : {}),
          },
          resource,
        }),
      ),
    );
  });
}

function attributesOf(list: JsonAttribute[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const { key, value } of list ?? []) {
    const v =
      value.stringValue ??
      value.boolValue ??
      value.doubleValue ??
      (value.intValue !== undefined ? Number(value.intValue) : undefined);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

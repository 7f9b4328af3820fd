import { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';
import { logFields } from './tracing/trace.js';

export type { Logger };

/** Keys whose values are secrets wherever they appear in a log object. */
const SECRET_KEYS = [
  'token',
  'botToken',
  'appToken',
  'signingSecret',
  'authorization',
  'Authorization',
  'password',
  'TSAI_TOKEN',
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
];

const REDACTED = '[redacted]';

/**
 * Slack's tokens by their shape (bot `xoxb-`, user `xoxp-`, refresh `xoxe-`, app `xapp-`): with "Add to
 * Slack" every installation has its own, too many to list, so any text shaped like one is scrubbed.
 */
const SLACK_TOKEN = /\bx(?:ox[a-z]|app)-[A-Za-z0-9-]{6,}/g;

/**
 * Replaces every occurrence of a known secret value inside strings, at any depth.
 * Path-based redaction alone misses a token that ends up inside an error message or URL,
 * so the values themselves are scrubbed too.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  const live = secrets.filter((s) => s.length >= 6);
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let out = v;
      for (const s of live) if (out.includes(s)) out = out.split(s).join(REDACTED);
      return out.includes('x') ? out.replace(SLACK_TOKEN, REDACTED) : out;
    }
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return v;
    seen.add(v);
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const [k, inner] of Object.entries(v)) out[k] = walk(inner);
    return out;
  };
  return walk(value) as T;
}

export interface LoggerOptions {
  level?: string;
  /** Secret values (tokens, signing secret) to scrub from every log line. */
  secrets?: readonly string[];
  /** Where to write; defaults to stdout. */
  destination?: pino.DestinationStream;
  /** One short human-readable line per entry instead of JSON (a terminal); secrets are redacted the same. */
  human?: boolean;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = options.secrets ?? [];
  return pino(
    {
      level: options.level ?? 'info',
      // The trace and span a line was written in, when tracing is on: a line found in the log leads to its
      // request's whole trace.
      mixin: logFields,
      redact: {
        paths: SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `headers.${k}`, `*.headers.${k}`]),
        censor: REDACTED,
      },
      formatters: {
        log: (obj) => scrubSecrets(obj, secrets),
      },
      hooks: {
        logMethod(args, method) {
          method.apply(this, scrubSecrets(args, secrets) as Parameters<typeof method>);
        },
      },
    },
    options.human ? humanLines(options.destination ?? process.stdout) : options.destination,
  );
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const NOT_SHOWN = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

/**
 * A log entry (one JSON line, already redacted and scrubbed) as `12:04:05.120 INFO  message key=value`.
 * A line that is not a JSON entry is passed on as it is.
 */
export function humanLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  if (entry === null || typeof entry !== 'object') return json;
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : '';
  const level = (LEVELS[Number(entry.level)] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([k]) => !NOT_SHOWN.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' && /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v)}`);
  return [time, level, String(entry.msg ?? ''), ...fields].filter((p) => p !== '').join(' ');
}

/** A destination that writes each JSON line it is given as a human-readable one to `out`. */
function humanLines(out: pino.DestinationStream): Writable {
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      const lines = chunk
        .toString()
        .split('\n')
        .filter((l) => l !== '');
      out.write(lines.map((l) => `${humanLogLine(l)}\n`).join(''));
      done();
    },
  });
}

/**
 * An error as one log-safe line: the message, and the Slack Web API's error code when there is one
 * (`chat.update` failed: "An API error occurred: ratelimited"). `stack` adds the stack for bugs.
 */
export function errText(e: unknown, o: { stack?: boolean } = {}): string {
  if (!(e instanceof Error)) return String(e);
  const data = (e as { data?: { error?: unknown } }).data;
  const base = o.stack ? (e.stack ?? e.message) : e.message;
  return typeof data?.error === 'string' && !e.message.includes(data.error)
    ? `${base} (${data.error})`
    : base;
}

/**
 * Writes a line another thread's logger already formatted (and scrubbed) to this logger's destination,
 * so that the process has one log stream.
 */
export function rawLogWriter(logger: Logger): (line: string) => void {
  const stream = (logger as unknown as Record<symbol, { write(s: string): unknown }>)[pino.symbols.streamSym];
  if (!stream) throw new Error('this logger has no destination stream');
  return (line) => void stream.write(line);
}

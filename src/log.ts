import { type Logger, pino } from 'pino';

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
 * Replaces every occurrence of a known secret value inside strings, at any depth.
 * Path-based redaction alone misses a token that ends up inside an error message or URL,
 * so the values themselves are scrubbed too.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  const live = secrets.filter((s) => s.length >= 6);
  if (live.length === 0) return value;
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let out = v;
      for (const s of live) if (out.includes(s)) out = out.split(s).join(REDACTED);
      return out;
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
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = options.secrets ?? [];
  return pino(
    {
      level: options.level ?? 'info',
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
    options.destination,
  );
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

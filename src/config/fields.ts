import { Buffer } from 'node:buffer';
import { z } from 'zod';
import { isValidTimeZone } from '../time/index.js';
import { allowlistEntry } from './addresses.js';
import { formatDuration, isBareNumber, parseDuration } from './duration.js';

/**
 * How one kind of value is read from a (trimmed, non-empty) variable, and how the docs name its format.
 * No message ever contains the value: several variables are secrets.
 */
export interface Field<T> {
  schema: z.ZodType<T>;
  format: string;
}

export function token(prefix: string, what: string): Field<string> {
  return {
    schema: z.string().startsWith(prefix, `must be ${what} starting with ${prefix}`),
    format: `\`${prefix}…\``,
  };
}

export function text(format: string, pattern: RegExp, message: string): Field<string> {
  return { schema: z.string().regex(pattern, message), format };
}

/**
 * An http or https URL without `user:password@`: credentials belong in the token variable, which is kept out of
 * logs and error messages, not in a URL that gets logged as a whole.
 */
export function httpUrl(tokenVariable: string): Field<string> {
  return {
    schema: z.string().superRefine((v, ctx) => {
      let u: URL;
      try {
        u = new URL(v);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be an http or https URL' });
        return;
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:')
        ctx.addIssue({ code: 'custom', message: 'must be an http or https URL' });
      else if (u.username !== '' || u.password !== '')
        ctx.addIssue({
          code: 'custom',
          message: `must not carry credentials (user:password@); put the token in ${tokenVariable} instead`,
        });
    }),
    format: 'http or https URL, no credentials',
  };
}

/** The `user:password@` of a URL exactly as written (what a logged URL would show); absent: undefined. */
export function urlUserInfo(url: string): string | undefined {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
  const at = authority.lastIndexOf('@');
  return at > 0 ? authority.slice(0, at + 1) : undefined;
}

/** The password part of a URL's `user:password@`, exactly as written; absent: undefined. */
export function urlPassword(url: string): string | undefined {
  const userInfo = urlUserInfo(url);
  const colon = userInfo?.indexOf(':') ?? -1;
  return userInfo && colon >= 0 ? userInfo.slice(colon + 1, -1) : undefined;
}

/**
 * A file path, a `sqlite:` URL, or a `postgres://` URL. The password inside a postgres URL is allowed (it is
 * PostgreSQL's own form); the configuration lists it among the secrets scrubbed from logs.
 */
export const databaseUrl: Field<string> = {
  schema: z.string().superRefine((v, ctx) => {
    if (/^postgres(ql)?:\/\//i.test(v)) {
      // An unparsable URL would later fail inside pg with an error that carries the whole URL. Like pg, a
      // URL whose host is empty (`user@/db?host=/socket/dir`) is read with a stand-in host.
      if (!URL.canParse(v) && !URL.canParse(v.replace('@/', '@localhost/')))
        ctx.addIssue({ code: 'custom', message: 'is not a valid postgres:// URL' });
    } else if (/^sqlite:(\/\/)?$/i.test(v)) {
      ctx.addIssue({ code: 'custom', message: 'names no file; example: sqlite:./data/bot.sqlite' });
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v) && !/^sqlite:/i.test(v)) {
      ctx.addIssue({ code: 'custom', message: 'must be a file path, a sqlite: URL or a postgres:// URL' });
    }
  }),
  format: 'file path, `sqlite:` URL or `postgres://` URL',
};

/** Entries separated by commas or spaces, each one `valid` (what it must be, for the message). */
function listOf(valid: (entry: string) => boolean, message: string): z.ZodType<string[]> {
  return z
    .string()
    .transform((v) =>
      v
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((entries) => entries.every(valid), message);
}

/** Host names, IP addresses and networks in CIDR notation, comma-separated (config/addresses.ts reads each, api/address.ts allows them). */
export const addressList: Field<string[]> = {
  schema: listOf(
    (e) => allowlistEntry(e) !== undefined,
    'must be host names, IP addresses or networks (e.g. tsai.corp.example, 10.20.0.0/16, ::1), comma-separated',
  ),
  format: 'host names, IP addresses and networks (`10.20.0.0/16`), comma-separated',
};

export function idList(pattern: RegExp, what: string, format: string): Field<string[]> {
  return {
    schema: listOf((id) => pattern.test(id), `must be a comma-separated list of ${what}`),
    format,
  };
}

const WORKSPACE_ID = /^\d{1,30}$/;
const USER_OR_GROUP = /^[UWS][A-Z0-9]{2,}$/;

/**
 * Approvers per service workspace: `<workspace ID>=<user or group IDs>` entries separated by `;`, e.g.
 * `1353853719423311872=S0LEADS U0BOB; 1353853719423311999=U0CAROL`. A bad entry is named with an example.
 */
export const approversByWorkspace: Field<Record<string, string[]>> = {
  schema: z.string().transform((v, ctx) => {
    const out: Record<string, string[]> = {};
    const entries = v
      .split(';')
      .map((e) => e.trim())
      .filter(Boolean);
    for (const [i, entry] of entries.entries()) {
      const [workspace = '', ids = '', ...rest] = entry.split('=').map((p) => p.trim());
      const list = ids.split(/[\s,]+/).filter(Boolean);
      const bad =
        rest.length > 0 ||
        !WORKSPACE_ID.test(workspace) ||
        list.length === 0 ||
        !list.every((id) => USER_OR_GROUP.test(id));
      if (bad || out[workspace]) {
        ctx.addIssue({
          code: 'custom',
          message: `entry ${i + 1} ${bad ? 'must be <workspace ID>=<user or group IDs>' : `names workspace ${workspace} again`}; write e.g. 1353853719423311872=S0LEADS U0BOB; 1353853719423311999=U0CAROL`,
        });
        return z.NEVER;
      }
      out[workspace] = list;
    }
    return out;
  }),
  format: '`<workspace ID>=<user/group IDs>`, entries separated by `;`',
};

export function wholeNumber(min: number, max: number): Field<number> {
  return {
    schema: z
      .string()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`),
    format: `whole number, ${min}–${max}`,
  };
}

export function port(variable: string, example: number): Field<number> {
  const message = `must be a port number between 0 and 65535 (e.g. ${variable}=${example})`;
  return {
    schema: z
      .string()
      .regex(/^\d+$/, message)
      .transform(Number)
      .refine((n) => n <= 65535, message),
    format: 'port, 0–65535 (0: any free port)',
  };
}

/** A port, or `off` for a server the bot can do without. */
export function portOrOff(variable: string, example: number): Field<number | 'off'> {
  const message = `must be a port number between 0 and 65535, or off (e.g. ${variable}=${example})`;
  return {
    schema: z
      .string()
      .transform((v) => v.trim().toLowerCase())
      .refine((v) => v === 'off' || (/^\d+$/.test(v) && Number(v) <= 65535), message)
      .transform((v) => (v === 'off' ? ('off' as const) : Number(v))),
    format: 'port, 0–65535 (0: any free port), or `off`',
  };
}

export const bool: Field<boolean> = {
  schema: z
    .string()
    .transform((v) => v.toLowerCase())
    .refine((v) => ['true', 'false', '1', '0', 'yes', 'no'].includes(v), 'must be true or false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  format: '`true` / `false`',
};

export const timeZone: Field<string> = {
  schema: z.string().refine(isValidTimeZone, 'must be an IANA time zone such as Europe/Berlin'),
  format: 'IANA time zone',
};

export function oneOf<const T extends readonly [string, ...string[]]>(values: T): Field<T[number]> {
  return {
    schema: z.enum(values, { message: `must be one of ${values.join(', ')}` }),
    format: values.map((v) => `\`${v}\``).join(', '),
  };
}

export interface DurationBounds {
  /** Shortest accepted, in ms; default 1 (a zero duration is refused). */
  min?: number;
  max?: number;
}

function durationSchema(bounds: DurationBounds, bareMs: boolean): z.ZodType<number> {
  const min = bounds.min ?? 1;
  const max = bounds.max ?? Number.MAX_SAFE_INTEGER;
  const shape = 'must be a duration such as 30s, 5m, 4h, 1d or 1h30m';
  return z.string().transform((v, ctx) => {
    const ms = parseDuration(v);
    if (ms === undefined) ctx.addIssue({ code: 'custom', message: shape });
    else if (!bareMs && isBareNumber(v))
      ctx.addIssue({ code: 'custom', message: `${shape}: a bare number has no unit` });
    else if (ms < min) ctx.addIssue({ code: 'custom', message: `must be at least ${formatDuration(min)}` });
    else if (ms > max) ctx.addIssue({ code: 'custom', message: `must be at most ${formatDuration(max)}` });
    else return ms;
    return z.NEVER;
  });
}

/** A duration with its unit: "30s", "5m", "4h", "1d", "1h30m", "250ms". */
export function duration(bounds: DurationBounds = {}): Field<number> {
  return { schema: durationSchema(bounds, false), format: 'duration' };
}

/** What an old `…_MS` name accepts: the bare milliseconds it was documented with, or a duration. */
export function durationOrMilliseconds(bounds: DurationBounds = {}): z.ZodType<number> {
  return durationSchema(bounds, true);
}

const KEY_BYTES = 32;
const KEY_MESSAGE = 'must be 32 bytes in base64, e.g. the output of `openssl rand -base64 32`';

function decodeKey(text: string): Uint8Array | undefined {
  const t = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(t) || t.length % 4 !== 0) return undefined;
  const bytes = Buffer.from(t, 'base64');
  return bytes.length === KEY_BYTES ? new Uint8Array(bytes) : undefined;
}

/** A 32-byte key written in base64 (AES-256). The message never contains the value. */
export const secretKey: Field<Uint8Array> = {
  schema: z.string().transform((v, ctx) => {
    const key = decodeKey(v);
    if (key) return key;
    ctx.addIssue({ code: 'custom', message: KEY_MESSAGE });
    return z.NEVER;
  }),
  format: 'base64 of 32 bytes',
};

/** Several such keys, comma-separated; one bad key fails the whole list, without saying which value. */
export const secretKeyList: Field<Uint8Array[]> = {
  schema: z.string().transform((v, ctx) => {
    const parts = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const keys = parts.map(decodeKey);
    if (keys.every((k): k is Uint8Array => k !== undefined)) return keys;
    const bad = keys.indexOf(undefined) + 1;
    ctx.addIssue({ code: 'custom', message: `key ${bad} of ${parts.length} ${KEY_MESSAGE}` });
    return z.NEVER;
  }),
  format: 'base64 keys, comma-separated',
};

/**
 * OpenTelemetry's `key=value` list (OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS): pairs separated
 * by commas, each value percent-decoded as the specification says. A bad pair is named by its place only,
 * since the headers carry a collector's API key.
 */
export const keyValueList: Field<Record<string, string>> = {
  schema: z.string().transform((v, ctx) => {
    const out: Record<string, string> = {};
    const pairs = v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    for (const [i, pair] of pairs.entries()) {
      const at = pair.indexOf('=');
      const key = at > 0 ? pair.slice(0, at).trim() : '';
      let value: string | undefined;
      try {
        value = decodeURIComponent(pair.slice(at + 1).trim());
      } catch {
        value = undefined;
      }
      if (!/^[A-Za-z0-9._-]+$/.test(key) || value === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `pair ${i + 1} of ${pairs.length} must be key=value (a value percent-encoded), e.g. deployment.environment=production`,
        });
        return z.NEVER;
      }
      out[key] = value;
    }
    return out;
  }),
  format: '`key=value` pairs, comma-separated',
};

/** A fraction from 0 to 1 (a sampling ratio). */
export const ratio: Field<number> = {
  schema: z
    .string()
    .regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, 'must be a number from 0 to 1, e.g. 0.25')
    .transform(Number),
  format: 'number, 0–1',
};

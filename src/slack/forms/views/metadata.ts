import { type FormId, isFormId, MAX_RANGES } from '../../../core/forms/fields.js';
import { parseJsonObject } from '../../../core/forms/json-object.js';

import { LIMITS } from '../../../wire/block-kit.js';

export const PRIVATE_METADATA_MAX = LIMITS.privateMetadata;

/**
 * What a modal remembers between interactions, carried in `private_metadata`.
 * It never holds user-typed text (that lives in the inputs), so its size is bounded.
 */
export interface ModalMeta {
  kind: FormId;
  /** Where the outcome is posted; absent when opened from a global shortcut (the modal then asks). */
  channel?: string;
  /** `response_url` of the slash command that opened the modal, to post in-channel as the command path does. */
  responseUrl?: string;
  /** The thread it was asked from (a mention in a thread): the outcome is a reply there. */
  thread?: string;
  origin: 'command' | 'shortcut' | 'reopen';
  /** Stable keys of the time-range inputs present, in display order. */
  ranges: number[];
  /** Next unused range key, so a removed input's block id is never reused. */
  next: number;
  /** The arguments prefilled from the channel's defaults, by key (shown in a note). */
  defaults?: string[];
  /** The user's IANA zone, once looked up, so a submission needs no Slack call before its 3-second ack. */
  timeZone?: string;
  /** The user's handle, for default flow names. */
  userName?: string;
  /** The user's Slack locale, looked up with the zone: how numeric dates in ranges are read. */
  locale?: string;
  /** The channel's shifts when it declared some (`morning@06:00,…`), for the range previews. */
  shifts?: string;
}

/** Keys for 1..n ranges of a new modal (at least one input, at most `max`). */
export function initialRangeKeys(count: number, max = MAX_RANGES): { ranges: number[]; next: number } {
  const n = Math.min(max, Math.max(1, count));
  const ranges = Array.from({ length: n }, (_, i) => i + 1);
  return { ranges, next: n + 1 };
}

export function encodeMeta(meta: ModalMeta): string {
  const compact = {
    k: meta.kind,
    c: meta.channel,
    u: meta.responseUrl,
    t: meta.thread,
    o: meta.origin,
    r: meta.ranges,
    n: meta.next,
    d: meta.defaults?.length ? meta.defaults : undefined,
    z: meta.timeZone,
    m: meta.userName ? meta.userName.slice(0, 100) : undefined,
    l: meta.locale ? meta.locale.slice(0, 35) : undefined,
    h: meta.shifts ? meta.shifts.slice(0, 400) : undefined,
  };
  let text = JSON.stringify(compact);
  if (text.length > PRIVATE_METADATA_MAX && compact.u) {
    // The response_url is only a convenience (chat.postMessage is the fallback); drop it before failing.
    compact.u = undefined;
    text = JSON.stringify(compact);
  }
  if (text.length > PRIVATE_METADATA_MAX) {
    throw new Error(`private_metadata would be ${text.length} characters (limit ${PRIVATE_METADATA_MAX})`);
  }
  return text;
}

/** Reads private_metadata back; anything malformed yields undefined (the caller answers with an error). */
export function decodeMeta(text: string | undefined): ModalMeta | undefined {
  if (!text) return undefined;
  const o = parseJsonObject(text);
  if (!o) return undefined;
  if (!isFormId(o.k)) return undefined;
  if (o.o !== 'command' && o.o !== 'shortcut' && o.o !== 'reopen') return undefined;
  const ranges = Array.isArray(o.r) ? o.r.filter((k): k is number => Number.isInteger(k) && k > 0) : [];
  if (ranges.length === 0 || ranges.length > MAX_RANGES) return undefined;
  const next = Number.isInteger(o.n) ? (o.n as number) : Math.max(...ranges) + 1;
  return {
    kind: o.k as FormId,
    channel: typeof o.c === 'string' ? o.c : undefined,
    responseUrl: typeof o.u === 'string' ? o.u : undefined,
    thread: typeof o.t === 'string' ? o.t : undefined,
    origin: o.o,
    ranges,
    next: Math.max(next, Math.max(...ranges) + 1),
    defaults: Array.isArray(o.d) ? o.d.filter((f): f is string => typeof f === 'string') : undefined,
    timeZone: typeof o.z === 'string' ? o.z : undefined,
    userName: typeof o.m === 'string' ? o.m : undefined,
    locale: typeof o.l === 'string' ? o.l : undefined,
    shifts: typeof o.h === 'string' ? o.h : undefined,
  };
}

import { trimForDisplay } from './errors.js';

/**
 * What a flow's status means to someone waiting on it. Part 2 of the reference names CREATED, RUNNING,
 * COMPLETED, FAILED, CANCELLED and NONE and says the set is open: anything else is still in progress.
 */
export type FlowPhase = 'in-progress' | 'completed' | 'failed' | 'cancelled';

export interface FlowModelResult {
  id: string;
  name?: string;
  /** true: the flow created the model; false: it extended (learned more) or changed an existing one. */
  created?: boolean;
  /** The model's live state after the flow, when the service said. */
  live?: boolean;
  /** The assessment the model belongs to (for an anomaly model, its signal), when the service said. */
  assessment?: string;
}
export interface FlowDataspecResult {
  id: string;
  name?: string;
  /** true: the flow stored a new dataspec; false: it reused one. */
  created?: boolean;
}
export interface FlowSignalResult {
  id: string;
  name?: string;
  /** The model output (schema name) written to the signal. */
  output?: string;
  created?: boolean;
}
export interface FlowEvalResult {
  id: string;
  name?: string;
  outputSignals: FlowSignalResult[];
}
export interface FlowSegmentResult {
  model?: string;
  entities: string[];
  /** As the service sent them (EVAL: nanoseconds as digit strings). */
  startTime?: string;
  endTime?: string;
}

/** What a completed flow produced, as far as the record says. Every list is empty when it says nothing. */
export interface FlowResults {
  models: FlowModelResult[];
  dataspecs: FlowDataspecResult[];
  evals: FlowEvalResult[];
  /** Signals listed on their own (output signals of an Eval are under `evals`). */
  signals: FlowSignalResult[];
  segments: FlowSegmentResult[];
  /**
   * Entries of a kind the client does not know, each with every other field as sent (lists and objects
   * included, as JSON): what an operation's registry entry may read as an output of its own, with no
   * change here. An entry whose fields are too large to keep keeps its type, ID and name and says why in
   * `refused`, rather than losing part of them.
   */
  others: OtherResult[];
  /** What the record held that was not kept, and why (more entries than are kept): never lost unsaid. */
  refused: { type: string; reason: string }[];
}

/** A value as JSON holds it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** An entry of a kind the client does not know. */
export interface OtherResult {
  type: string;
  id?: string;
  name?: string;
  /** Every field besides its type, ID and name, as sent. */
  fields?: Record<string, Json>;
  /** Why its fields were not kept (they were larger than the client keeps of one entry). */
  refused?: string;
}

export interface FlowView {
  id: string;
  flowType?: string;
  name?: string;
  /** The status as the service sent it, for display; "unknown" when the record has none. */
  status: string;
  phase: FlowPhase;
  /** true once the phase is completed, failed or cancelled: the flow will not change any more. */
  ended: boolean;
  /** false for a status the client does not know (or none): shown raw and treated as in progress. */
  knownStatus: boolean;
  /** The service's reason (for FAILED, or any status that carries one), trimmed for display. */
  message?: string;
  /** Epoch ms. */
  createTime?: number;
  updateTime?: number;
  results: FlowResults;
}

const PHASES: Record<string, FlowPhase> = {
  CREATED: 'in-progress',
  RUNNING: 'in-progress',
  NONE: 'in-progress',
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
  CANCELED: 'cancelled',
};

/** Where results may sit in a flow record: the public script reads `outputs`; the rest are guesses. */
const RESULT_KEYS = ['outputs', 'output', 'results', 'result'];
const MESSAGE_KEYS = ['message', 'errorMessage', 'statusMessage', 'failureReason', 'reason', 'error'];
const MAX_ENTRIES = 200;
const MAX_DEPTH = 4;
/** The most of one unknown entry's fields kept, as JSON characters, and how deep they may nest. */
const MAX_OTHER_CHARS = 16_000;
const MAX_OTHER_DEPTH = 10;
/** How many refusals are listed one by one; past them, one says how many more. */
const MAX_REFUSED = 20;

type Obj = Record<string, unknown>;

/**
 * Reads a flow record tolerantly: unknown fields are ignored, an unknown status is kept raw, and results
 * are accepted as an `outputs` array of typed entries (what the emulator writes), a `result` object of
 * IDs (`{model, dataspec, eval}`), or a mix. Never throws for any record that has an `id`.
 */
export function readFlow(record: Obj & { id: string }, scrub: (text: string) => string = (t) => t): FlowView {
  const raw = record.status;
  const status =
    typeof raw === 'string' && raw.trim() !== ''
      ? trimForDisplay(raw, 60)
      : typeof raw === 'number' || typeof raw === 'boolean'
        ? String(raw)
        : 'unknown';
  const phase = PHASES[status.toUpperCase()];
  // Scrubbed before it is cut for display: a token cut in half would no longer be found.
  const message = firstMessage(record, scrub);
  const flowType = text(record.flowType, 60);
  const name = text(record.name);
  const createTime = epochMs(record.createTime);
  const updateTime = epochMs(record.updateTime);
  return {
    id: record.id,
    ...(flowType !== undefined ? { flowType } : {}),
    ...(name !== undefined ? { name } : {}),
    status,
    phase: phase ?? 'in-progress',
    ended: phase !== undefined && phase !== 'in-progress',
    knownStatus: phase !== undefined,
    ...(message !== undefined ? { message } : {}),
    ...(createTime !== undefined ? { createTime } : {}),
    ...(updateTime !== undefined ? { updateTime } : {}),
    results: readResults(record),
  };
}

export function readResults(record: Obj): FlowResults {
  const out: FlowResults = {
    models: [],
    dataspecs: [],
    evals: [],
    signals: [],
    segments: [],
    others: [],
    refused: [],
  };
  for (const key of RESULT_KEYS) visit(record[key], out, 0);
  return out;
}

function visit(value: unknown, out: FlowResults, depth: number): void {
  if (value === undefined) return;
  if (depth > MAX_DEPTH) {
    refuse(out, 'results', `they nest deeper than ${MAX_DEPTH} levels, which the bot does not read`);
    return;
  }
  if (Array.isArray(value)) {
    if (value.length > MAX_ENTRIES)
      refuse(out, 'results', `the record lists ${value.length}; the bot read the first ${MAX_ENTRIES}`);
    for (const item of value.slice(0, MAX_ENTRIES)) if (isObj(item)) visitObject(item, out, depth + 1);
    return;
  }
  if (isObj(value)) visitObject(value, out, depth + 1);
}

function visitObject(o: Obj, out: FlowResults, depth: number): void {
  if (typeof o.type === 'string') {
    entry(kindOf(o.type), o, out, o.type);
    return;
  }
  // An untyped object is a map: `{model: "…", dataspec: {id, name}, outputs: [...]}`.
  for (const [key, value] of Object.entries(o)) {
    if (RESULT_KEYS.includes(key) || key === 'items') {
      visit(value, out, depth);
      continue;
    }
    const kind = kindOf(key);
    // A key of a kind the client does not know is an entry of its own: kept whole, never passed over.
    if (kind === undefined) {
      entry(undefined, isObj(value) ? value : { value }, out, key);
      continue;
    }
    for (const v of Array.isArray(value) ? value.slice(0, MAX_ENTRIES) : [value])
      entry(kind, isObj(v) ? v : { id: v }, out, key);
  }
}

type Kind = 'model' | 'dataspec' | 'eval' | 'signal' | 'segment';

/** "entities.model", "Model", "modelId", "models" → "model"; undefined for anything else. */
function kindOf(name: string): Kind | undefined {
  const n = name
    .toLowerCase()
    .replace(/^entit(y|ies)\./, '')
    .replace(/_?ids?$/, '')
    .replace(/s$/, '');
  if (n === 'model') return 'model';
  if (n === 'dataspec') return 'dataspec';
  if (n === 'eval' || n === 'evaluation') return 'eval';
  if (n === 'signal' || n === 'outputsignal') return 'signal';
  if (n === 'segment' || n === 'timerange' || n === 'range') return 'segment';
  return undefined;
}

function entry(kind: Kind | undefined, o: Obj, out: FlowResults, type: string): void {
  if (kind === 'segment') {
    if (out.segments.length < MAX_ENTRIES) out.segments.push(segment(o));
    return;
  }
  const id = idOf(o.id) ?? (kind ? (idOf(o[kind]) ?? idOf(o[`${kind}Id`])) : undefined);
  if (kind === undefined) {
    const other = otherResult(type, id, o);
    if (out.others.length < MAX_ENTRIES) out.others.push(other);
    else
      refuse(
        out,
        other.type,
        `the record lists more than ${MAX_ENTRIES} results of kinds the bot does not know`,
      );
    return;
  }
  if (id === undefined) return;
  const named = { id, ...opt('name', text(o.name)) };
  const created = opt('created', bool(o.created));
  if (kind === 'model')
    add(out.models, {
      ...named,
      ...created,
      ...opt('live', bool(o.live)),
      ...opt('assessment', idOf(o.assessment)),
    });
  else if (kind === 'dataspec') add(out.dataspecs, { ...named, ...created });
  else if (kind === 'signal') add(out.signals, signal(o, id));
  else {
    const set = isObj(o.outputSignalset) ? o.outputSignalset.signals : undefined;
    const list = o.outputSignals ?? o.outputsignals ?? o.signals ?? set;
    const outputSignals = (Array.isArray(list) ? list.slice(0, MAX_ENTRIES) : []).flatMap((s) => {
      const id = isObj(s) ? (idOf(s.signal) ?? idOf(s.id)) : idOf(s);
      return id === undefined ? [] : [signal(isObj(s) ? s : {}, id)];
    });
    add(out.evals, { ...named, outputSignals });
  }
}

/**
 * An entry of a kind the client does not know: its type, ID and name, and every other field as sent
 * (lists and objects included; IDs stay exact, as the lossless parse gave them). Fields too large or too
 * deep to keep are refused whole, with the reason, never cut.
 */
function otherResult(type: string, id: string | undefined, o: Obj): OtherResult {
  const head = { type: trimForDisplay(type, 60), ...opt('id', id), ...opt('name', text(o.name)) };
  const rest = Object.entries(o).filter(([key]) => key !== 'type' && key !== 'id' && key !== 'name');
  if (rest.length === 0) return head;
  const fields = jsonOf(Object.fromEntries(rest), 0);
  if (fields === undefined || typeof fields !== 'object' || fields === null || Array.isArray(fields))
    return {
      ...head,
      refused: `its fields nest deeper than ${MAX_OTHER_DEPTH} levels, which the bot does not keep`,
    };
  const size = JSON.stringify(fields).length;
  if (size > MAX_OTHER_CHARS)
    return {
      ...head,
      refused: `its fields are ${size} characters as JSON, more than the ${MAX_OTHER_CHARS} the bot keeps of one result`,
    };
  return { ...head, fields };
}

/** A value as JSON holds it, or undefined when it nests too deep (what JSON cannot hold is left as null). */
function jsonOf(v: unknown, depth: number): Json | undefined {
  if (depth > MAX_OTHER_DEPTH) return undefined;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) {
    const items = v.map((x) => jsonOf(x, depth + 1));
    return items.includes(undefined) ? undefined : (items as Json[]);
  }
  if (isObj(v)) {
    const out: Record<string, Json> = {};
    for (const [key, x] of Object.entries(v)) {
      const j = jsonOf(x, depth + 1);
      if (j === undefined) return undefined;
      out[key] = j;
    }
    return out;
  }
  return null;
}

/** Says what was not kept and why; past `MAX_REFUSED`, one line counts the rest. */
function refuse(out: FlowResults, type: string, reason: string): void {
  if (out.refused.length < MAX_REFUSED) out.refused.push({ type: trimForDisplay(type, 60), reason });
  else if (out.refused.length === MAX_REFUSED)
    out.refused.push({ type: '…', reason: 'and more, for the same reasons' });
}

function signal(o: Obj, id: string): FlowSignalResult {
  return {
    id,
    ...opt('name', text(o.name)),
    ...opt('output', text(o.output)),
    ...opt('created', bool(o.created)),
  };
}

function segment(o: Obj): FlowSegmentResult {
  const range = isObj(o.timeRange) ? o.timeRange : o;
  const entities = Array.isArray(o.entities)
    ? o.entities.filter((e): e is string => typeof e === 'string').slice(0, MAX_ENTRIES)
    : [];
  return {
    entities,
    ...opt('model', idOf(o.model)),
    ...opt('startTime', timeText(range.startTime)),
    ...opt('endTime', timeText(range.endTime)),
  };
}

/** Adds unless an entry with that ID is already there (a record may list a result in two places). */
function add<T extends { id: string }>(list: T[], item: T): void {
  if (list.length < MAX_ENTRIES && !list.some((x) => x.id === item.id)) list.push(item);
}

function firstMessage(record: Obj, scrub: (text: string) => string): string | undefined {
  for (const key of MESSAGE_KEYS) {
    const v = record[key];
    const m = typeof v === 'string' ? v : isObj(v) && typeof v.message === 'string' ? v.message : undefined;
    if (m !== undefined && m.trim() !== '') return trimForDisplay(scrub(m));
  }
  return undefined;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** IDs stay strings: a JSON number too large for a double already arrives as a string (lossless parse). */
function idOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() !== '' && v.length <= 128 ? v : undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v === 'bigint') return String(v);
  return undefined;
}

function text(v: unknown, max = 200): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? trimForDisplay(v, max) : undefined;
}

function timeText(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return text(v, 40);
}

function bool(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined;
}

function epochMs(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d{1,16}$/.test(v)) return Number(v);
  return undefined;
}

/** `{[key]: value}` when the value is defined, else `{}`: keeps optional fields absent, not undefined. */
function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

import { z } from 'zod';

// Responses are lenient: unknown fields are kept, IDs are coerced to strings (never numbers).

const idOut = z.union([z.string().min(1), z.number(), z.bigint()]).transform((v) => String(v));
/** A field of the wrong type reads as absent instead of making the whole record unreadable. */
const optionalText = z.string().optional().catch(undefined);

export const workspaceRecord = z.looseObject({
  id: idOut,
  name: optionalText,
  description: optionalText,
});

export const modelRecord = z.looseObject({
  id: idOut,
  name: optionalText,
  workspace: idOut.optional().catch(undefined),
});

export const flowRecord = z.looseObject({
  id: idOut,
  status: optionalText,
  name: optionalText,
  flowType: optionalText,
});

/**
 * The emulator's `outputs` entries on a COMPLETED flow. The real service's record is not documented
 * beyond a public script reading an `outputs` array, so the client reads this shape, and others,
 * tolerantly; the emulator writes exactly this one.
 */
export type FlowOutput =
  /**
   * ANOMALYLEARN: the model created (`created: true`) or extended; STARTLIVEMODEL/STOPLIVEMODEL: the model
   * whose `live` changed. `assessment`: the assessment it belongs to (for an anomaly model, its signal).
   */
  | { type: 'entities.model'; id: string; name: string; created: boolean; live: boolean; assessment?: string }
  /** ANOMALYLEARN/ANOMALYEVAL: the dataspec used, `created: true` when an inline one was stored. */
  | { type: 'entities.dataspec'; id: string; name: string; created: boolean }
  /** ANOMALYEVAL: the Eval object, with one entry per model output mapped to a signal. */
  | { type: 'entities.eval'; id: string; name: string; outputSignals: FlowOutputSignal[] }
  /** EVAL: one entry per segment whose model output was generated; times in ns as digit strings. */
  | { type: 'segment'; model: string; entities: string[]; timeRange: { startTime: string; endTime: string } };

export interface FlowOutputSignal {
  /** Signal ID. */
  signal: string;
  /** The signal's name in the service, e.g. `pumps/eval1/anomaly_score` for a prefix. */
  name: string;
  /** The model output (schema name) written to it, e.g. `anomaly_score`. */
  output: string;
  /** True when the flow created the signal (outputsignalPrefix), false for an existing one (outputsignals). */
  created: boolean;
}

export type WorkspaceRecord = z.infer<typeof workspaceRecord>;
export type ModelRecord = z.infer<typeof modelRecord>;
export type FlowRecord = z.infer<typeof flowRecord>;

/**
 * The model list response is not documented. Accepted: a bare array, or an object holding the
 * array under `items`, `content`, `models` or `data`. Returns the elements, or null for any other shape.
 */
export function listElements(body: unknown): unknown[] | null {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') {
    for (const key of ['items', 'content', 'models', 'data']) {
      const inner = (body as Record<string, unknown>)[key];
      if (Array.isArray(inner)) return inner;
    }
  }
  return null;
}

/**
 * JSON.parse that keeps integers too large for a double exact by turning them into strings first.
 * IDs of the real service exceed 2^53; a service that sent one unquoted must not lose digits.
 */
export function parseJsonLossless(text: string): unknown {
  let out = '';
  let i = 0;
  let last = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if ((c >= '0' && c <= '9') || c === '-') {
      let j = i + (c === '-' ? 1 : 0);
      while (j < text.length && text[j]! >= '0' && text[j]! <= '9') j++;
      const isFloat = j < text.length && /[.eE]/.test(text[j]!);
      const token = text.slice(i, j);
      if (!isFloat && token.replace('-', '').length > 15 && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(last, i)}"${token}"`;
        last = j;
      }
      i = j;
      continue;
    }
    i++;
  }
  return JSON.parse(out + text.slice(last));
}

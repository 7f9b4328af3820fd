import { z } from 'zod';
import { expected, idString, isoToNanos, isoUtcString, nameString, nanosString } from './common.js';

// Request bodies are strict: an unknown field is an error, so a typo never reaches the service silently.

export const createWorkspaceBody = z.strictObject({
  name: nameString,
  description: z.string(expected('must be a string')).optional(),
});

export const moveModelBody = z.strictObject({ workspace: idString });

const DIGITS = /^\d{1,19}$/;

const nsRange = z
  .strictObject({ startTime: nanosString, endTime: nanosString })
  // Refinements run even when a field failed, so only compare two valid digit strings.
  .refine(
    (r) =>
      !DIGITS.test(String(r.startTime)) ||
      !DIGITS.test(String(r.endTime)) ||
      BigInt(r.startTime) < BigInt(r.endTime),
    {
      message: 'must be before endTime',
      path: ['startTime'],
    },
  );

/**
 * A flow-creating body: its `flowType`, one of the types the registry entry that sends it declares, then
 * its fields. The flow types are the entries' (and the emulator's), never listed here.
 */
export function flowBody<const F extends readonly [string, ...string[]], S extends z.ZodRawShape>(
  types: F,
  fields: S,
) {
  return z.strictObject({ flowType: z.enum(types), ...fields });
}

/** EVAL's fields. */
export const evalFlowFields = {
  name: nameString,
  datastream: idString,
  assessment: idString,
  model: idString,
  spec: z.strictObject({
    commonModelId: idString,
    segments: z
      .array(
        z.strictObject({
          entities: z
            .array(nameString, expected('must be an array of entity names'))
            .min(1, 'must name at least one entity'),
          timeRange: nsRange,
        }),
        expected('must be an array of segments'),
      )
      .min(1, 'must contain at least one segment'),
    forLive: z.boolean(expected('must be true or false')),
    withEpisodes: z.boolean(expected('must be true or false')),
  }),
};

/** STARTLIVEMODEL's and STOPLIVEMODEL's fields. */
export const liveModelFlowFields = {
  name: nameString,
  spec: z.strictObject({ model: idString }),
};

const isoRange = z.strictObject({ startTime: isoUtcString, endTime: isoUtcString }).refine(
  (r) => {
    const [a, b] = [isoToNanos(String(r.startTime)), isoToNanos(String(r.endTime))];
    return a === null || b === null || a < b;
  },
  { message: 'must be before endTime', path: ['startTime'] },
);

const signalEntry = z.strictObject({ signal: idString, name: nameString });

const dataspecSpecs = z
  .array(
    z.strictObject({
      timeRanges: z
        .array(isoRange, expected('must be an array'))
        .min(1, 'must contain at least one time range'),
      signals: z.array(signalEntry, expected('must be an array')).min(1, 'must contain at least one signal'),
    }),
    expected('must be an array'),
  )
  .min(1, 'must contain at least one spec');

export type Dataspec =
  | { id: string }
  | {
      name: string;
      specs: {
        timeRanges: { startTime: string; endTime: string }[];
        signals: { signal: string; name: string }[];
      }[];
    };

/**
 * Inline `{name, specs}` or reference `{id}`. One object schema (not a union) so that errors name the
 * exact field that is wrong instead of "matches neither form".
 */
export const dataspec = z
  .strictObject(
    { id: idString.optional(), name: nameString.optional(), specs: dataspecSpecs.optional() },
    expected('must be an inline dataspec {name, specs} or a reference {id}'),
  )
  .superRefine((d, ctx) => {
    if (d.id !== undefined) {
      if (d.name !== undefined || d.specs !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['id'],
          message: 'a dataspec reference {id} takes no other fields',
        });
      return;
    }
    if (d.name === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: 'is required (or give {id} to reuse a dataspec)',
      });
    if (d.specs === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['specs'],
        message: 'is required (or give {id} to reuse a dataspec)',
      });
  }) as unknown as z.ZodType<Dataspec>;

/** ANOMALYLEARN's fields: `spec.model` present selects incremental learning on that model; then modelName is refused. */
export const anomalyLearnFields = {
  name: nameString,
  description: z.string(expected('must be a string')).optional(),
  spec: z
    .strictObject({
      workspace: idString,
      model: idString.optional(),
      modelName: nameString.optional(),
      dataspec,
    })
    .refine((s) => !(s.model !== undefined && s.modelName !== undefined), {
      message: 'give either model (incremental learning) or modelName (new model), not both',
      path: ['modelName'],
    }),
};

/** ANOMALYEVAL's fields. */
export const anomalyEvalFields = {
  name: nameString,
  description: z.string(expected('must be a string')).optional(),
  spec: z
    .strictObject({
      model: idString,
      workspace: idString,
      dataspec,
      outputsignalPrefix: nameString.optional(),
      outputsignals: z
        .array(signalEntry, expected('must be an array'))
        .min(1, 'must not be empty')
        .optional(),
    })
    .superRefine((s, ctx) => {
      const hasPrefix = s.outputsignalPrefix !== undefined;
      const hasSignals = s.outputsignals !== undefined;
      if (hasPrefix === hasSignals)
        ctx.addIssue({
          code: 'custom',
          path: ['outputsignalPrefix'],
          message: hasPrefix
            ? 'give either outputsignalPrefix or outputsignals, not both'
            : 'one of outputsignalPrefix or outputsignals is required',
        });
    }),
};

export type CreateWorkspaceBody = z.infer<typeof createWorkspaceBody>;
export type MoveModelBody = z.infer<typeof moveModelBody>;

import type { z } from 'zod';
import {
  anomalyEvalFields,
  anomalyLearnFields,
  evalFlowFields,
  flowBody,
  liveModelFlowFields,
} from '../../src/wire/index.js';

/**
 * The flow types the emulator serves, as the service API specifies them: which version serves each, and
 * the body it checks (built from the same fields the bot's registry entries send). A new flow type is a
 * line in each.
 */

/** Flow types served at each API version (spec section 9). */
export const FLOW_TYPES_BY_VERSION = {
  '1.2': ['EVAL', 'STARTLIVEMODEL', 'STOPLIVEMODEL'],
  '1.3': ['ANOMALYLEARN', 'ANOMALYEVAL'],
} as const;

const liveBody = flowBody(['STARTLIVEMODEL', 'STOPLIVEMODEL'], liveModelFlowFields);

export const flowBodyByType = {
  EVAL: flowBody(['EVAL'], evalFlowFields),
  STARTLIVEMODEL: liveBody,
  STOPLIVEMODEL: liveBody,
  ANOMALYLEARN: flowBody(['ANOMALYLEARN'], anomalyLearnFields),
  ANOMALYEVAL: flowBody(['ANOMALYEVAL'], anomalyEvalFields),
} as const;

export type FlowType = keyof typeof flowBodyByType;
export type EvalFlowBody = z.infer<typeof flowBodyByType.EVAL>;
export type LiveModelFlowBody = z.infer<typeof liveBody>;
export type AnomalyLearnBody = z.infer<typeof flowBodyByType.ANOMALYLEARN>;
export type AnomalyEvalBody = z.infer<typeof flowBodyByType.ANOMALYEVAL>;

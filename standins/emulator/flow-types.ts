import { anomalyEvalBody, anomalyLearnBody, evalFlowBody, liveModelFlowBody } from '../../src/wire/index.js';

/**
 * The flow types the emulator serves, as the service API specifies them: which version serves each, and
 * the body schema it checks (the same schema the bot's registry entries send with). A new flow type is a
 * line in each.
 */

/** Flow types served at each API version (spec section 9). */
export const FLOW_TYPES_BY_VERSION = {
  '1.2': ['EVAL', 'STARTLIVEMODEL', 'STOPLIVEMODEL'],
  '1.3': ['ANOMALYLEARN', 'ANOMALYEVAL'],
} as const;

export const flowBodyByType = {
  EVAL: evalFlowBody,
  STARTLIVEMODEL: liveModelFlowBody,
  STOPLIVEMODEL: liveModelFlowBody,
  ANOMALYLEARN: anomalyLearnBody,
  ANOMALYEVAL: anomalyEvalBody,
} as const;

export type FlowType = keyof typeof flowBodyByType;

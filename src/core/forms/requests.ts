import type { OpRequest } from '../operations/requests.js';

export type { ResolvedData, ResolvedOutput } from '../operations/requests.js';

/**
 * A modal resolves to exactly what the command path resolves to, and runs through the same `execute`:
 * a modal and a command create identical flows and post identical messages.
 */
export type ModalRequest = Extract<OpRequest, { kind: 'learn' | 'relearn' | 'score' | 'eval' }>;

/**
 * The part of the service client (`src/api`, `ServiceClient`) the approval workflow uses. Declared
 * structurally so this module does not depend on more of the client than it calls.
 */
export interface LiveFlowRecord {
  id: string;
  status?: string;
  [key: string]: unknown;
}

export interface LiveModelClient {
  findCommonModel(assessmentId: string): Promise<{ id: string; [key: string]: unknown } | null>;
  startLiveModel(input: { name: string; model: string }): Promise<LiveFlowRecord>;
  stopLiveModel(input: { name: string; model: string }): Promise<LiveFlowRecord>;
}

/** What a failed flow creation means for the request: definitive (retryable) or outcome unknown. */
export interface ClassifiedError {
  definitive: boolean;
  message: string;
}

/**
 * `ServiceError.kind` 'outcome-unknown' and 'timeout' mean the service may have created the flow;
 * anything that is not a ServiceError is treated the same way, because nothing proves it was not sent.
 */
export function classifyExecutionError(err: unknown): ClassifiedError {
  const e = err as { kind?: unknown; userMessage?: unknown } | null;
  const kind = typeof e?.kind === 'string' ? e.kind : undefined;
  const userMessage = typeof e?.userMessage === 'string' && e.userMessage !== '' ? e.userMessage : undefined;
  if (kind === undefined || userMessage === undefined) {
    return {
      definitive: false,
      message: 'Unexpected error while creating the flow; its outcome is unknown. Check the Activity view.',
    };
  }
  // 'busy' never left the bot (the client's own queue was full), so it is definitive and can be retried.
  if (kind === 'outcome-unknown' || kind === 'timeout') return { definitive: false, message: userMessage };
  return { definitive: true, message: userMessage };
}

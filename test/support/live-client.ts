import type { LiveFlowRecord, LiveModelClient } from '../../src/core/live-client.js';

/** Shaped like the api part's ServiceError (kind + userMessage), which the approvals core duck-types. */
export class ServiceErrorLike extends Error {
  constructor(
    readonly kind: 'http' | 'network' | 'timeout' | 'outcome-unknown' | 'invalid-request' | 'bad-id',
    readonly userMessage: string,
  ) {
    super(userMessage);
  }
}

/**
 * A recording LiveModelClient for the approval workflow's tests until the service client and emulator
 * land in main. It creates flow records with fresh IDs and can be told to fail the next creations.
 */
export class RecordingLiveClient implements LiveModelClient {
  readonly created: { flowType: 'STARTLIVEMODEL' | 'STOPLIVEMODEL'; name: string; model: string }[] = [];
  readonly lookups: string[] = [];
  readonly failures: Error[] = [];
  private next = 1353853719423400000n;

  constructor(readonly commonModels: Record<string, string> = {}) {}

  async findCommonModel(assessmentId: string) {
    this.lookups.push(assessmentId);
    const id = this.commonModels[assessmentId];
    return id ? { id, workspace: '1353853719423300000' } : null;
  }

  startLiveModel(input: { name: string; model: string }) {
    return this.create('STARTLIVEMODEL', input);
  }

  stopLiveModel(input: { name: string; model: string }) {
    return this.create('STOPLIVEMODEL', input);
  }

  private async create(
    flowType: 'STARTLIVEMODEL' | 'STOPLIVEMODEL',
    input: { name: string; model: string },
  ): Promise<LiveFlowRecord> {
    // Yield first, so concurrent callers really overlap.
    await new Promise((r) => setImmediate(r));
    const failure = this.failures.shift();
    if (failure) throw failure;
    this.created.push({ flowType, ...input });
    this.next += 1n;
    return { id: this.next.toString(), status: 'CREATED', flowType, name: input.name };
  }
}

import type { IncomingMessage } from 'node:http';

export type BodyRead =
  | { kind: 'read'; raw: Buffer }
  /** Past the limit: reading stopped there. */
  | { kind: 'too-large' }
  /** Every body in flight together is at the budget: reading stopped. */
  | { kind: 'busy' }
  /** The client went away or the stream failed. */
  | { kind: 'broken' };

/** Bytes of request bodies held at once across all requests, taken and given back by each reader. */
export class BodyBudget {
  private held = 0;
  constructor(readonly limitBytes: number) {}
  take(n: number): boolean {
    if (this.held + n > this.limitBytes) return false;
    this.held += n;
    return true;
  }
  give(n: number): void {
    this.held -= n;
  }
}

/**
 * Reads a request body, counting bytes as they arrive and feeding each chunk to `onChunk`; it stops
 * reading at the first chunk past `limitBytes` or past the shared budget, so an oversized body is never
 * held. The budget is given back when the returned `release` is called (after the body is handed on).
 */
export function readBody(
  req: IncomingMessage,
  limitBytes: number,
  budget: BodyBudget,
  onChunk: (chunk: Buffer) => void,
): Promise<{ read: BodyRead; release: () => void }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let released = false;
    const release = () => {
      if (!released) budget.give(size);
      released = true;
    };
    const finish = (read: BodyRead) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
      if (read.kind !== 'read') {
        req.pause();
        release();
      }
      resolve({ read, release });
    };
    const onData = (chunk: Buffer) => {
      if (size + chunk.length > limitBytes) return finish({ kind: 'too-large' });
      if (!budget.take(chunk.length)) return finish({ kind: 'busy' });
      size += chunk.length;
      chunks.push(chunk);
      onChunk(chunk);
    };
    const onEnd = () => finish({ kind: 'read', raw: Buffer.concat(chunks, size) });
    const onError = () => finish({ kind: 'broken' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}

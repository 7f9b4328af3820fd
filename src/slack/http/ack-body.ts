/**
 * Ack bodies. Their own module, apart from `ack.ts`, because listeners build them and listener modules
 * are in the follow-up worker's import graph too (features.ts lists each feature whole): `ack.ts` loads
 * Bolt, which would cost the worker thread Bolt, Express and all of undici for nothing.
 */

/**
 * A frozen body cannot change (the bot freezes bodies only with `frozen`, all the way down), so its JSON
 * is encoded once: help is the same text for every asker, and serializing it again for each `/tsai help`
 * was over a quarter of what the acking thread allocated under a burst of commands (docs/performance.md).
 */
const encoded = new WeakMap<object, Buffer>();

/** What `httpAck` writes for an object body: its JSON, encoded once when the body is frozen. */
export function jsonOf(body: object): string | Buffer {
  if (!Object.isFrozen(body)) return JSON.stringify(body);
  let bytes = encoded.get(body);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(body));
    encoded.set(body, bytes);
  }
  return bytes;
}

/** `value`, and everything in it, made immutable: an ack body that `httpAck` may encode once. */
export function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}

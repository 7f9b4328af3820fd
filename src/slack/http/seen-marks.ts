/**
 * Gathers the replay marks the requests of one event-loop turn ask for and writes them to the store in one
 * call. A burst of N signed requests then costs a few statements instead of N commits on the acking
 * thread. Each request still waits for the store's answer before it is acted on, so a replay reaching two
 * replicas at once is acted on by one of them only (the mark is the store's atomic upsert either way).
 */
export type MarkMany = (keys: readonly string[], now: number) => Promise<Set<string>>;

export function batchedMarks(markMany: MarkMany): (key: string) => Promise<boolean> {
  let pending: Map<string, ((first: boolean) => void)[]> | undefined;
  let failed: ((err: unknown) => void)[] = [];
  const flush = () => {
    const batch = pending;
    const rejects = failed;
    pending = undefined;
    failed = [];
    if (!batch) return;
    markMany([...batch.keys()], Date.now()).then(
      (marked) => {
        for (const [key, waiters] of batch) {
          // The same bytes twice in one turn: the first is acted on, the others are repeats.
          waiters.forEach((resolve, i) => {
            resolve(i === 0 && marked.has(key));
          });
        }
      },
      (err: unknown) => {
        for (const reject of rejects) reject(err);
      },
    );
  };
  return (key) =>
    new Promise<boolean>((resolve, reject) => {
      if (!pending) {
        pending = new Map();
        setImmediate(flush);
      }
      const waiters = pending.get(key);
      if (waiters) waiters.push(resolve);
      else pending.set(key, [resolve]);
      failed.push(reject);
    });
}

import type pg from 'pg';

/**
 * How long a query may wait for a client of a full pool while the pool keeps handing clients back. A
 * burst (many commands, the flow tracker's rounds) on a busy machine can keep all clients in use for
 * longer than the connect timeout; that is load, and failing the command for it would tell a person the
 * store failed when it only queued them.
 */
export const BUSY_POOL_WAIT_MS = 60_000;

/** pg-pool's error for a checkout that waited `connectionTimeoutMillis` in the queue of a full pool. */
const QUEUE_TIMEOUT = 'timeout exceeded when trying to connect';

/**
 * Clients of a pool, where a full pool is told from a stuck one. pg-pool fails a checkout that waited
 * `connectionTimeoutMillis` for a client whether the pool was busy or its clients hang on a server that no
 * longer answers. Here a checkout that timed out waits again while, in the meantime, some client was given
 * back (the pool is moving), up to `BUSY_POOL_WAIT_MS` in all; with no client given back it fails as
 * before, so a server that hangs is still reported after the connect timeout.
 */
export class PoolCheckout {
  private givenBack = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly busyWaitMs = BUSY_POOL_WAIT_MS,
  ) {
    pool.on('release', () => {
      this.givenBack++;
    });
  }

  async client(): Promise<pg.PoolClient> {
    const began = Date.now();
    for (;;) {
      const before = this.givenBack;
      try {
        return await this.pool.connect();
      } catch (err) {
        const moving = this.givenBack !== before;
        const timedOutInQueue = err instanceof Error && err.message === QUEUE_TIMEOUT;
        if (!timedOutInQueue || !moving || Date.now() - began >= this.busyWaitMs) throw err;
      }
    }
  }

  /**
   * Runs `use` with a client of its own. A connection that breaks while the client is out is reported
   * through the call that was using it (never as an unhandled 'error' event), and the client is dropped.
   * `dropOnError`: drop it after any failure too, as `pool.query` does.
   */
  async with<T>(use: (client: pg.PoolClient) => Promise<T>, dropOnError = false): Promise<T> {
    const client = await this.client();
    let broken: Error | undefined;
    const onError = (e: Error) => {
      broken = e;
    };
    client.on('error', onError);
    try {
      return await use(client);
    } catch (err) {
      if (dropOnError) broken ??= err instanceof Error ? err : new Error(String(err));
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  /** One statement on a client of its own, as `pool.query` runs it. */
  query(text: string, params: unknown[]): Promise<pg.QueryResult> {
    return this.with((c) => c.query(text, params), true);
  }
}

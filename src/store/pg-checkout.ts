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
    // A client is guarded from the moment pg-pool hands it out, in the same tick: a connection that
    // breaks while the client is out (a server shutting down sends its FATAL right behind the ready
    // message of a new connection, in one read) must fail the call using it, not crash the thread with
    // an 'error' event nobody listens to. The call's query rejects on its own, and pg-pool drops a client
    // that can no longer be queried when it is given back.
    pool.on('acquire', (client) => client.on('error', whileOut));
    pool.on('release', (_err, client) => {
      client.off('error', whileOut);
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
   * Runs `use` with a client of its own, given back afterwards. `dropOnError`: a client whose call
   * failed is dropped rather than kept, as `pool.query` does.
   */
  async with<T>(use: (client: pg.PoolClient) => Promise<T>, dropOnError = false): Promise<T> {
    const client = await this.client();
    try {
      const result = await use(client);
      client.release();
      return result;
    } catch (err) {
      client.release(dropOnError ? (err instanceof Error ? err : new Error(String(err))) : undefined);
      throw err;
    }
  }

  /** One statement on a client of its own, as `pool.query` runs it. */
  query(text: string, params: unknown[]): Promise<pg.QueryResult> {
    return this.with((c) => c.query(text, params), true);
  }
}

/** The listener a client has while it is out: see the constructor. */
function whileOut(): void {}

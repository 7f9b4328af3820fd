import type { Server, ServerOptions } from 'node:http';

/** The largest request body taken; Slack's real payloads are far below it (a full modal is ~100 KB). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Request bodies held at once across all connections, before their signature is known to be good. */
export const BODIES_IN_FLIGHT_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * How long a connection may take over each part of its life. Slack sends a whole request at once and waits
 * only 3 s for the answer, so a client slower than these is not Slack; without them Node lets a socket that
 * sends nothing stay open for ever and one that trickles its headers hold a connection for a minute.
 */
export const CONNECTION_BOUNDS = {
  /** From the first byte to the end of the headers. */
  headersTimeoutMs: 10_000,
  /** From the first byte to the end of the body. */
  requestTimeoutMs: 15_000,
  /** Between two requests on a kept-alive connection. */
  keepAliveTimeoutMs: 5_000,
  /** A socket on which nothing arrives for this long is closed (one that never sends a byte too). */
  idleSocketTimeoutMs: 10_000,
  /** How often Node checks the header and request bounds; its default (30 s) would triple them. */
  checkIntervalMs: 1_000,
} as const;

/** Options for `http.createServer` that carry the bounds (the idle timeout is set on the server). */
export function boundedServerOptions(): ServerOptions {
  return {
    headersTimeout: CONNECTION_BOUNDS.headersTimeoutMs,
    requestTimeout: CONNECTION_BOUNDS.requestTimeoutMs,
    keepAliveTimeout: CONNECTION_BOUNDS.keepAliveTimeoutMs,
    connectionsCheckingInterval: CONNECTION_BOUNDS.checkIntervalMs,
  };
}

/** The bounds that are set on a server once it exists. */
export function boundServer(server: Server): void {
  server.keepAliveTimeout = CONNECTION_BOUNDS.keepAliveTimeoutMs;
  server.headersTimeout = CONNECTION_BOUNDS.headersTimeoutMs;
  server.requestTimeout = CONNECTION_BOUNDS.requestTimeoutMs;
  // With no 'timeout' listener on the server, Node destroys a socket idle this long.
  server.setTimeout(CONNECTION_BOUNDS.idleSocketTimeoutMs);
}

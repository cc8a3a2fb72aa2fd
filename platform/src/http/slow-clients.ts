import type { ServerOptions } from 'node:http';

/** How long a client may take, per phase of a request; every value in milliseconds. */
export interface ClientTimeouts {
  /** Until the request's headers are complete. */
  headersTimeoutMs: number;
  /** Until the whole request, headers and body, has arrived; a response being streamed is not bound by it. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept between requests. */
  keepAliveTimeoutMs: number;
}

export const defaultClientTimeouts: ClientTimeouts = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

/**
 * Fastify server options that bound slow clients: a connection trickling its headers or body, or idling between
 * requests, is cut after its timeout (408 for an incomplete request, then close) instead of holding a socket for ever.
 * Node checks these deadlines on an interval, so a cut comes at most a second after its timeout.
 */
export function clientTimeoutOptions(timeouts: ClientTimeouts = defaultClientTimeouts): {
  requestTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
} {
  return {
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    // Node refuses a headers timeout longer than the request timeout; the request timeout covers both then.
    http: {
      headersTimeout: Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersTimeoutMs),
    },
  };
}

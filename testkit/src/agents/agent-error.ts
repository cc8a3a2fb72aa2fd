/**
 * Why a simulated agent call failed. A test of the server reads `code` (and `status` for a refused request); the
 * message always starts with the path, so a server bug names the route that broke the protocol.
 */
export type SimulatedAgentErrorCode =
  /** Enrollment refused: osquery read `node_invalid: true`, orbit a 401. */
  | 'enroll_refused'
  /** The node key was refused again right after re-enrolling (agents re-enroll once per call). */
  | 'node_invalid'
  /** A status other than 200 (or osquery's `error` in a 200 body). */
  | 'request_failed'
  /** The answer does not match the agent protocol's schema. */
  | 'malformed_response'
  /** No HTTP answer at all (connection refused, reset). */
  | 'unreachable';

export class SimulatedAgentError extends Error {
  constructor(
    readonly code: SimulatedAgentErrorCode,
    /** The request path, e.g. `/api/v1/osquery/config`. */
    readonly path: string,
    detail: string,
    /** The HTTP status, when there was an answer. */
    readonly status?: number,
  ) {
    super(`POST ${path}: ${detail}`);
    this.name = 'SimulatedAgentError';
  }
}

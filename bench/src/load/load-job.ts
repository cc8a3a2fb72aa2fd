/** What the orchestrator asks the load generator process to do: one phase against one target. */
export interface LoadJob {
  /** `closed`: `connections` requests always in flight; `open`: `rate` requests a second whatever the answers; `serial`: one at a time. */
  kind: 'closed' | 'open' | 'serial';
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** SSE: a response counts only when it ends with `data: [DONE]`. */
  stream: boolean;
  connections: number;
  /** Offered requests a second (open loop only). */
  rate: number;
  /** Upper bounds of the phase: it stops at whichever comes first. */
  durationMs: number;
  maxRequests: number;
}

/** Raw samples, so rounds can be merged before percentiles are taken. */
export interface LoadResult {
  requests: number;
  errors: number;
  firstError: string | null;
  /** From the first request sent to the last answer completed. */
  elapsedMs: number;
  /** Request sent → last body byte, successful requests only. */
  latenciesMs: Float64Array;
  /** Request sent → first body byte (for a stream, its first event). */
  ttfbMs: Float64Array;
}

export type LoadMessage = { type: 'job'; id: number; job: LoadJob } | { type: 'exit' };
export type LoadReply =
  { type: 'result'; id: number; result: LoadResult } | { type: 'failed'; id: number; message: string };

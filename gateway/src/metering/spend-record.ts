import type { EvidenceClass } from '@gw/contracts';

/**
 * One content-free record per metered call: metadata only, never prompt or
 * response bodies. Field names are the stored JSON names of the spend API.
 */
export interface SpendRecord {
  id: string;
  ts: string;
  endpoint: string;
  method: string;
  status: number;
  outcome: 'success' | 'error' | 'rejected';
  provider: string | null;
  model: string | null;
  reasoningEffort: string | null;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  /**
   * The token counts are the gateway's estimate, not the provider's report: a stream that ended before the provider
   * sent its usage (`inference/cut-stream-usage.ts`). Absent means reported (or none).
   */
  usageEstimated?: boolean;
  latencyMs: number;
  upstreamLatencyMs: number | null;
  /** Streams: time from the request to the first byte sent to the client (TTFT); not stored, feeds metrics only. */
  timeToFirstByteMs?: number | null;
  costUsd: number;
  savingsUsd: number;
  tokensSaved: number;
  billingMode: 'api-key' | 'passthrough' | 'subscription-extra' | 'none';
  user: string | null;
  team: string | null;
  keyId: string | null;
  keyType: 'client' | 'service' | null;
  stream: boolean;
  optimizationStatus: 'applied' | 'skipped' | 'disabled' | 'timeout' | 'error' | null;
  optimizationReason: string | null;
  optimizerLatencyMs: number | null;
  /**
   * The optimizer's evidence class for the request: how it stood on retrieval, and so whether bulky fresh tool
   * outputs could be compressed behind a handle (`docs/adr/0021-fresh-reversible-trimming.md`). Null when the
   * optimizer gave none; absent on records spilled before the field existed.
   */
  evidenceClass?: EvidenceClass | null;
  attempts: number;
  target: string | null;
  errorCode: string | null;
  traceId: string | null;
  /** Caller-supplied attribution (`x-gw-metadata` entries, `x-gw-property-*` under `properties`); never content. */
  attribution: {
    metadata?: Record<string, string>;
    properties?: Record<string, string>;
    /** The optimizer's holdout arm, so quality parity can compare arms. */
    optimizer?: { cohort: string; cohortKind: string | null };
    /** The gateway session (sticky conversation) the call belongs to; also the trace's session. */
    session?: string;
  };
}

import type { Decision, DecisionPin, EvidenceClass, OptimizeRequest } from '@gw/contracts';
import type { Clock } from '@gw/platform';
import type { SpanRewrite } from '../guard/span-rewrite.js';
import type { TurnTimes } from '../pipeline/turn-log.js';
import type { StashPort } from '../stash/stash.js';

/**
 * The service's view of the pure pipeline (`runPipeline` in `../pipeline/index.ts`), so routes depend on a shape,
 * not on the module: tests can drive the routes with a stand-in and main wires the real one.
 */
export interface PipelineInput extends OptimizeRequest {
  /** Kinds switched off for this request by kill switches or a per-strategy holdout arm. */
  disabledKinds?: readonly string[];
  /** `config.requireReversibleElision`; undefined follows the lane. */
  requireReversibleElision?: boolean | undefined;
  /** The activated handle-free continuation path may be used. */
  agentContinuationActive?: boolean;
}

export interface PipelineDeps {
  stash: StashPort;
  /** Key of the pins' `spanHash` HMAC; stable across replicas and restarts. */
  hmacKey: Buffer;
  clock: Clock;
  /** When this session's earlier turns were answered (a warm or an expired provider cache); never in the bytes. */
  turns?: TurnTimes;
  /** Monotonic milliseconds for `strategyTimingsMs`; absent, timings read 0 and responses are byte-reproducible. */
  timer?: () => number;
  /** The stash mints the same handle for the same owner and content (it does: handles are keyed MACs). */
  stableHandles: boolean;
  /** Regression guard: false holds a kind back, reported with reason `regret_guard`. */
  guard?: (kind: string) => boolean;
  /** List price of one input token of the request's model in USD, for `estimatedSavingsUsd`. */
  pricePerToken?: number;
}

export interface PipelineResult {
  request: Record<string, unknown>;
  decisions: Decision[];
  estimatedTokensSaved: number;
  suppressedKinds: Array<{
    kind: string;
    reason: 'no_retrieve' | 'cache_guard' | 'prefix_stabilizer' | 'regret_guard' | 'pin_thrash';
  }>;
  strategyTimingsMs: Record<string, number>;
  pins?: DecisionPin[];
  /** True only when this response used the activated handle-free continuation path. */
  agentContinuationV1?: boolean;
  /** Each rewritten tool output (the guard's regret signals); a pipeline without it is guarded per decision. */
  rewrites?: readonly SpanRewrite[];
  /** Seam for a tool-pruning strategy: tools it dropped, by kind (a later call of one is a regret). */
  prunedTools?: ReadonlyArray<{ kind: string; tools: readonly string[] }>;
  /** Seam for a reasoning-downshift strategy: kinds that downshifted this request. */
  downshiftKinds?: readonly string[];
  /** Present when the request carried `capabilities.retrievalDiscovery`: echoed as `evidenceClass`. */
  evidenceClass?: EvidenceClass;
}

export type RunPipeline = (input: PipelineInput, deps: PipelineDeps) => Promise<PipelineResult> | PipelineResult;

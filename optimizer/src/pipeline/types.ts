import type { Clock } from '@gw/platform';
import type { EvidenceClass, OptimizeCapabilities, StrategyToggle } from '@gw/contracts';
import type { JsonObject } from '../format/json-value.js';
import type { StrategyKind } from '../strategies/types.js';
import type { TurnTimes } from './turn-log.js';
import { freshTrimLane } from '../guard/span-rewrite.js';

/** The part of the runtime config the pipeline reads. */
export interface PipelineSettings {
  /** Kill switches by endpoint, model, user or team; the most specific matching entry wins, later on a tie. */
  readonly strategies?: readonly StrategyToggle[] | undefined;
  /** true: no degrade on any no-retrieve lane; false: in-place trim on api-key lanes; unset: follow the lane. */
  readonly requireReversibleElision?: boolean | null | undefined;
}

/** One `/v1/optimize` body, already validated by the service. */
export interface PipelineInput {
  readonly endpoint: string;
  readonly request: JsonObject;
  readonly metadata?: JsonObject | undefined;
  readonly capabilities?: OptimizeCapabilities | undefined;
  readonly enabledKinds?: readonly string[] | undefined;
  /** Present (even empty) when the session opted into pinning. */
  readonly pins?: readonly unknown[] | undefined;
  readonly settings?: PipelineSettings | undefined;
  /** Kinds the service already switched off for this request (kill switches it resolved, a holdout arm). */
  readonly disabledKinds?: readonly string[] | undefined;
  /** `config.requireReversibleElision` when the service passes it directly; wins over `settings`. */
  readonly requireReversibleElision?: boolean | null | undefined;
  /**
   * The handle-free continuation path is activated;
   * until then `capabilities.agentContinuation` grants nothing.
   */
  readonly agentContinuationActive?: boolean | undefined;
}

/** The guard lane of fresh reversible trims as a whole (see `freshTrimLane`). */
export { freshTrimLane };
export type GuardLane = StrategyKind | typeof freshTrimLane;

/** The stash as the pipeline sees it: a handle only once the bounded durable write completed, else null. */
export interface PipelineStash {
  put(content: string): Promise<string | null>;
  /** Best effort: re-persist a replayed pin's handle. Never awaited on the request path. */
  refresh?(handle: string, content: string): Promise<unknown>;
}

export interface PipelineDeps {
  readonly stash: PipelineStash;
  /** Key of the `spanHash` HMAC in pins. */
  readonly hmacKey: string | Uint8Array;
  /** Wall clock: with `turns`, tells a warm provider cache from an expired one between turns. */
  readonly clock?: Clock | undefined;
  /** When this session's earlier turns were answered; absent, every cache counts as warm. */
  readonly turns?: TurnTimes | undefined;
  /** Monotonic milliseconds for `strategyTimingsMs`; absent, timings read 0 and the output is fully reproducible. */
  readonly timer?: (() => number) | undefined;
  /** Regression guard: false holds a kind back (reason `regret_guard`). */
  readonly guard?: ((kind: GuardLane) => boolean) | undefined;
  /** List price of one input token in USD, for `estimatedSavingsUsd`. */
  readonly pricePerToken?: number | undefined;
  /**
   * The stash mints the same handle for the same content, so re-deciding a span gives the same bytes on every
   * turn even without pins; then handle-bearing rewrites need no `cache_guard` on sessions without pins.
   */
  readonly stableHandles?: boolean | undefined;
}

export type Decision = {
  kind: StrategyKind;
  summary: string;
  estimatedTokensSaved: number;
  estimatedSavingsUsd: number;
};

export type SuppressionReason = 'no_retrieve' | 'cache_guard' | 'prefix_stabilizer' | 'regret_guard' | 'pin_thrash';

export type SuppressedKind = {
  kind: GuardLane;
  reason: SuppressionReason;
};

export interface PipelineResult {
  request: JsonObject;
  decisions: Decision[];
  estimatedTokensSaved: number;
  suppressedKinds: SuppressedKind[];
  strategyTimingsMs: Record<string, number>;
  /** Only when the input carried pins: the full replacement list. */
  pins?: JsonObject[];
  /** Strategies that threw and were skipped for this request. */
  failedKinds: StrategyKind[];
  /** This response used the handle-free continuation path (`features.agentContinuationV1`). */
  agentContinuationV1: boolean;
  /** What the request carried: its format and how many tool outputs it had and how many were rewritten. */
  census: { format: string | null; toolOutputs: number; rewrittenOutputs: number };
  /**
   * Each rewritten tool output, for the regression guard's regret signals: where it sits, the call
   * that produced it, the handle of its stashed original and the steps applied. Locations and ids, never content.
   */
  rewrites: SpanRewrite[];
  /** Only when the request carried `capabilities.retrievalDiscovery`: the class the gateway records on the spend row. */
  evidenceClass?: EvidenceClass;
}

export interface SpanRewrite {
  readonly key: string;
  readonly messageIndex: number;
  readonly toolName: string | undefined;
  readonly toolInput: string | undefined;
  readonly handle: string | null;
  readonly steps: ReadonlyArray<{ readonly kind: StrategyKind; readonly replayed: boolean; readonly handle: boolean }>;
  /** The output is in the fresh turn of this request: a fresh reversible trim (charged to `freshTrimLane` too). */
  readonly fresh: boolean;
}

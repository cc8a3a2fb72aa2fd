import type { Clock, Coord, Logger } from '@gw/platform';
import type { ProviderStore } from '../providers/provider.store.js';
import type { RoutingStore } from '../routing/routing.store.js';
import type { MeteringStage } from '../chain/metering/metering.stage.js';
import type { UpstreamClient } from '../providers/upstream/upstream-client.js';
import type { InferenceMetrics } from '../metering/inference-metrics.js';
import type { ThrottleGate } from '../routing/throttle-gate.js';
import type { AttemptMetrics } from '../routing/attempt-metrics.js';
import type { OptimizerClient } from '../optimization/hook/optimizer-client.js';
import type { SessionPins } from '../optimization/hook/session-pins.js';
import type { CircuitBreaker } from '../optimization/hook/circuit-breaker.js';
import type { BatchStore } from './batches/batch.store.js';

/** What the inference routes need; a slice of the gateway's deps. */
export interface InferenceDeps {
  providers: ProviderStore;
  routing: RoutingStore;
  upstream: UpstreamClient;
  /** Records each call's one spend row and trace (`../chain/metering/`). */
  meter: MeteringStage;
  metrics: InferenceMetrics;
  throttle: ThrottleGate;
  coord: Coord;
  /** Seat overflow settings, read per request from the runtime settings cache. */
  seatPolicy: () => { seatOverflow: boolean; seatOverflowHourlyMaxRequests: number };
  /** `GW_CUSTOM_HOST_ALLOWLIST` and `GW_ALLOW_PRIVATE_UPSTREAMS`, for `x-gw-custom-host`. */
  customHosts: { allowlist: string | undefined; allowPrivate: boolean };
  attemptMetrics: AttemptMetrics;
  /** The optimizer's pre- and post-call hooks; null when GW_OPTIMIZER_URL is unset (status `disabled`). */
  optimizer: OptimizerClient | null;
  /** Skips the pre-call hook while the optimizer keeps failing; absent = always call it. */
  optimizerBreaker?: CircuitBreaker | null;
  pins: SessionPins;
  /** Who created each batch and which of its output lines are billed (`batches/`). */
  batches: BatchStore;
  /** Where a key stands on its retrieval lease (`../optimization/retrieval/lease.store.ts`): live means the client can call gw_retrieve. */
  retrievalLease?: { standing(keyId: string): Promise<'live' | 'lapsed' | 'none'> };
  /** `GW_PUBLIC_URL`: a hosted connector aimed at `<publicUrl>/mcp` is retrieval declared directly. */
  publicUrl?: string;
  /**
   * Aborted when a shutdown's drain deadline passes (`Lifecycle.drainDeadline`): calls still running end cleanly (a
   * stream with its error event, a call not yet answered with a retryable 503) before the connections are closed.
   */
  shutdown?: AbortSignal;
  clock: Clock;
  logger: Logger;
  /** Injected so retry waits and load-balancing spreads are testable. */
  sleep: (milliseconds: number) => Promise<void>;
  random: () => number;
}

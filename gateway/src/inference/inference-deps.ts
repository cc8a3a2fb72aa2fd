import type { Clock, Logger } from '@gw/platform';
import type { ProviderStore } from '../providers/provider.store.js';
import type { RoutingStore } from '../routing/routing.store.js';
import type { SpendRecorder } from '../metering/spend-recorder.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { InferenceMetrics } from '../metering/inference-metrics.js';
import type { ThrottleGate } from '../routing/throttle-gate.js';
import type { AttemptMetrics } from '../routing/attempt-metrics.js';

/** What the inference routes need; a slice of the gateway's deps. */
export interface InferenceDeps {
  providers: ProviderStore;
  routing: RoutingStore;
  upstream: UpstreamClient;
  spend: SpendRecorder;
  metrics: InferenceMetrics;
  throttle: ThrottleGate;
  attemptMetrics: AttemptMetrics;
  clock: Clock;
  logger: Logger;
  /** Injected so retry waits and load-balancing spreads are testable. */
  sleep: (milliseconds: number) => Promise<void>;
  random: () => number;
}

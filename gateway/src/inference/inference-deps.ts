import type { Clock, Logger } from '@gw/platform';
import type { ProviderStore } from '../providers/provider.store.js';
import type { RoutingStore } from '../routing/routing.store.js';
import type { SpendRecorder } from '../metering/spend-recorder.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { InferenceMetrics } from '../metering/inference-metrics.js';

/** What the inference routes need; a slice of the gateway's deps. */
export interface InferenceDeps {
  providers: ProviderStore;
  routing: RoutingStore;
  upstream: UpstreamClient;
  spend: SpendRecorder;
  metrics: InferenceMetrics;
  clock: Clock;
  logger: Logger;
}

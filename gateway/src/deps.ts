import type { Clock, Coord, Db, Lifecycle, Logger } from '@gw/platform';
import type { Registry } from 'prom-client';
import type { GatewayConfig } from './config.js';
import type { KeyStore } from './keys/key.store.js';
import type { AdminDeps } from './admin/stores.js';
import type { ProviderStore } from './providers/provider.store.js';
import type { RoutingStore } from './routing/routing.store.js';
import type { UpstreamClient } from './upstream/upstream-client.js';
import type { InferenceDeps } from './inference/inference-deps.js';
import type { SpendRecorder } from './metering/spend-recorder.js';
import type { SpendWriter } from './metering/spend-writer.js';
import type { InferenceMetrics } from './metering/inference-metrics.js';

/** Everything the gateway app needs, built by the composition root (main.ts) or by tests. */
export interface GatewayDeps extends AdminDeps {
  config: GatewayConfig;
  logger: Logger;
  db: Db;
  coord: Coord;
  clock: Clock;
  lifecycle: Lifecycle;
  metrics: Registry;
  keys: KeyStore;
  providers: ProviderStore;
  routing: RoutingStore;
  upstream: UpstreamClient;
  spend: SpendRecorder;
  spendWriter: SpendWriter;
  inferenceMetrics: InferenceMetrics;
  /** The slice the inference routes use (routing, retries, throttling included). */
  inference: InferenceDeps;
}

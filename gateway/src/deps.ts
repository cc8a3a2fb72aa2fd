import type { Clock, Coord, Db, Lifecycle, Logger } from '@gw/platform';
import type { Registry } from 'prom-client';
import type { GatewayConfig } from './config.js';
import type { KeyStore } from './keys/key.store.js';

/** Everything the gateway app needs, built by the composition root (main.ts) or by tests. */
export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  db: Db;
  coord: Coord;
  clock: Clock;
  lifecycle: Lifecycle;
  metrics: Registry;
  keys: KeyStore;
}

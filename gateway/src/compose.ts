import { fileURLToPath } from 'node:url';
import { Lifecycle, createDb, loadMigrations, migrate, systemClock, type Clock, type Db, type Logger } from '@gw/platform';
import { createCoord } from '@gw/platform';
import type { GatewayConfig } from './config.js';
import type { GatewayDeps } from './deps.js';
import { KeyStore } from './keys/key.store.js';
import { createMetricsRegistry } from './metrics/metrics.js';

export const gatewayMigrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));

export async function migrateGateway(db: Db) {
  return migrate(db, 'gateway', await loadMigrations(gatewayMigrationsDir));
}

/** Build the dependency graph from config; tests pass their own db, coord or clock. */
export async function composeGateway(config: GatewayConfig, logger: Logger, overrides: Partial<Pick<GatewayDeps, 'db' | 'coord' | 'clock'>> = {}): Promise<GatewayDeps> {
  const clock: Clock = overrides.clock ?? systemClock;
  const db = overrides.db ?? (await createDb({ url: config.GW_SPEND_DB_URL, dataDir: config.GW_DATA_DIR, embeddedName: 'gateway-store', onError: (error) => logger.warn({ err: error }, 'store connection error') }));
  await migrateGateway(db);
  const coord = overrides.coord ?? createCoord({ ...(config.GW_REDIS_URL ? { redisUrl: config.GW_REDIS_URL } : {}), prefix: 'gw', clock, logger });
  const lifecycle = new Lifecycle();
  return { config, logger, db, coord, clock, lifecycle, metrics: createMetricsRegistry(), keys: new KeyStore(db, clock) };
}

import { createDb, type Db, type Logger } from '@gw/platform';
import type { GatewayConfig } from '../../config.js';

/**
 * The gateway's store: Postgres when `GW_SPEND_DB_URL` is set, else the embedded store under `GW_DATA_DIR`. Its own
 * module, so main.ts can open it before the rest of the gateway's modules load (see there); compose opens it here too
 * when a caller passes no store of its own.
 */
export function openGatewayStore(
  config: Pick<GatewayConfig, 'GW_SPEND_DB_URL' | 'GW_DATA_DIR'>,
  logger: Logger,
): Promise<Db> {
  return createDb({
    url: config.GW_SPEND_DB_URL,
    dataDir: config.GW_DATA_DIR,
    embeddedName: 'gateway-store',
    onError: (error) => logger.warn({ err: error }, 'store connection error'),
  });
}

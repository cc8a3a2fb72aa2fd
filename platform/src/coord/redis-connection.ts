import type { Redis } from 'ioredis';
import type { CoordLogger } from './coord-logger.js';

/**
 * Makes a connection safe to run unattended: errors are logged (once per outage, not once per reconnect attempt)
 * instead of reaching an unhandled 'error' event. Calls made while the first connection attempt is in flight wait
 * for it in the offline queue (so boot does not race the handshake); as soon as that attempt settles, either way,
 * the queue is turned off, so during an outage calls reject at once instead of waiting for Redis to come back.
 * Calls already queued when the first attempt fails reject after one retry (`maxRetriesPerRequest: 1`).
 */
export function superviseConnection(redis: Redis, role: string, logger: CoordLogger | undefined): void {
  let healthy = true;
  const stopQueueing = () => {
    redis.options.enableOfflineQueue = false;
  };
  redis.on('error', (error: unknown) => {
    stopQueueing();
    if (!healthy) return;
    healthy = false;
    logger?.warn({ err: error, role }, 'redis connection failed; coordination calls reject until it recovers');
  });
  redis.on('ready', () => {
    stopQueueing();
    if (!healthy) logger?.info({ role }, 'redis connection recovered');
    healthy = true;
  });
}

/** Closes gracefully when connected (pending replies arrive); otherwise drops the socket and stops reconnecting. */
export async function closeConnection(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}

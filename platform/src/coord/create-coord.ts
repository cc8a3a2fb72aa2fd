import type { Clock } from '../clock.js';
import type { Coord } from './coord.js';
import type { CoordLogger } from './coord-logger.js';
import { MemoryCoord } from './memory-coord.js';

export interface CreateCoordOptions {
  /** `GW_REDIS_URL`: when set, Redis shared by every replica; when unset, in-process for a single replica. */
  redisUrl?: string | undefined;
  /** Redis key and channel prefix (default `gw`). Unused in process. */
  prefix?: string | undefined;
  /** Time for the in-process implementation. Redis measures time on its server so replicas agree. */
  clock?: Clock | undefined;
  logger?: CoordLogger | undefined;
}

/** The Redis client is imported only when a Redis URL is given: a single replica never loads it. */
export async function createCoord(options: CreateCoordOptions = {}): Promise<Coord> {
  if (options.redisUrl) {
    const { RedisCoord } = await import('./redis-coord.js');
    return new RedisCoord({
      url: options.redisUrl,
      ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
  }
  return new MemoryCoord({
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
}

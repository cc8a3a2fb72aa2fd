export type { Coord, CounterIncrement, RateDecision, SlotLease } from './coord.js';
export type { CoordLogger } from './coord-logger.js';
export { MemoryCoord, type MemoryCoordOptions } from './memory-coord.js';
// `RedisCoord` itself is the subpath `@gw/platform/redis`: `createCoord` loads it only for a Redis URL.
export type { RedisCoordOptions } from './redis-coord.js';
export { createCoord, type CreateCoordOptions } from './create-coord.js';

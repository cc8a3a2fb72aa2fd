// `@gw/platform/redis`: coordination on Redis, apart from the main entry so that importing the platform does not
// load `ioredis` (services reach it through `createCoord`).
export { RedisCoord, type RedisCoordOptions } from './coord/redis-coord.js';

import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisCoord, type RedisCoordOptions } from '@gw/platform/redis';

export interface IsolatedRedisCoords {
  /** Fresh random prefix shared by every replica of this fixture. */
  readonly prefix: string;
  /** Another replica: its own connections, the same keys and channels. */
  replica(options?: Omit<RedisCoordOptions, 'url' | 'prefix'>): RedisCoord;
  /** Closes every replica and deletes every key under the prefix. */
  dispose(): Promise<void>;
}

/** Replicas on a real Redis isolated under a fresh prefix, so tests never see each other's keys or messages. */
export function createIsolatedRedisCoords(url: string): IsolatedRedisCoords {
  const prefix = `test-${randomBytes(6).toString('hex')}`;
  const replicas: RedisCoord[] = [];
  return {
    prefix,
    replica: (options = {}) => {
      const coord = new RedisCoord({ ...options, url, prefix });
      replicas.push(coord);
      return coord;
    },
    dispose: async () => {
      await Promise.all(replicas.map((coord) => coord.close()));
      await deleteUnderPrefix(url, prefix);
    },
  };
}

async function deleteUnderPrefix(url: string, prefix: string): Promise<void> {
  const admin = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await admin.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await admin.quit();
  }
}

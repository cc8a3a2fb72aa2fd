import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedRedisCoords, testRedisUrl, type IsolatedRedisCoords } from '@gw/testkit';
import { createLogger } from '../src/logger.js';
import { describeCoordSuite } from '../src/coord/coord.suite.js';
import { LuaScript } from '../src/coord/lua-script.js';
import { createCoord, MemoryCoord } from '../src/coord/index.js';
import { RedisCoord } from '../src/coord/redis-coord.js';

const url = testRedisUrl(process.env);

describeCoordSuite('RedisCoord', async () => {
  const coords = createIsolatedRedisCoords(url);
  return {
    coord: coords.replica(),
    replica: () => coords.replica(),
    // Expiry runs on the Redis server's own clock, which a test cannot advance and which signals nothing: the suite's
    // TTL cases let real time pass here (the memory coord's fixture advances a manual clock instead).
    elapse: (milliseconds) => sleep(milliseconds),
    dispose: () => coords.dispose(),
  };
});

describe('RedisCoord on a real server', () => {
  let admin: Redis;
  const fixtures: IsolatedRedisCoords[] = [];
  const isolated = () => {
    const coords = createIsolatedRedisCoords(url);
    fixtures.push(coords);
    return coords;
  };
  beforeAll(() => {
    admin = new Redis(url, { maxRetriesPerRequest: 1 });
  });
  afterEach(async () => {
    await Promise.all(fixtures.splice(0).map((coords) => coords.dispose()));
  });
  afterAll(async () => {
    await admin.quit();
  });

  it('keeps every key under its prefix, so two prefixes never see each other', async () => {
    const tenantA = isolated();
    const tenantB = isolated();
    const coordA = tenantA.replica();
    await coordA.incrementBy('spend', 7);
    await coordA.setValue('pause', 'yes', 10_000);
    await coordA.rateLimit('rpm', 5, 10_000);
    await coordA.acquireSlot('streams', 5, 10_000);
    expect(await tenantB.replica().getCounter('spend')).toBe(0);
    const keys = await admin.keys(`${tenantA.prefix}:*`);
    expect(keys.sort()).toEqual([
      `${tenantA.prefix}:kv:pause`,
      `${tenantA.prefix}:kv:spend`,
      `${tenantA.prefix}:rate:rpm`,
      `${tenantA.prefix}:slots:streams`,
    ]);
  });

  it('gives limiter and semaphore keys an expiry so abandoned ones vanish', async () => {
    const coords = isolated();
    const coord = coords.replica();
    await coord.rateLimit('rpm', 5, 10_000);
    await coord.acquireSlot('streams', 5, 20_000);
    expect(await admin.pttl(`${coords.prefix}:rate:rpm`)).toBeGreaterThan(9_000);
    expect(await admin.pttl(`${coords.prefix}:slots:streams`)).toBeGreaterThan(19_000);
  });

  it('subscribes lazily, under the prefix, and unsubscribes from Redis when the last listener leaves', async () => {
    const coords = isolated();
    const coord = coords.replica();
    const channel = `${coords.prefix}:chan:revocations`;
    const subscribers = async () => ((await admin.pubsub('NUMSUB', channel)) as [string, number])[1];
    const first = await coord.subscribe('revocations', () => undefined);
    const second = await coord.subscribe('revocations', () => undefined);
    expect(await subscribers()).toBe(1);
    await first();
    expect(await subscribers()).toBe(1);
    await second();
    expect(await subscribers()).toBe(0);
  });

  it('loads a script the server has not seen and uses its digest afterwards', async () => {
    const script = new LuaScript(`return ARGV[1] -- ${randomUUID()}`);
    expect(await script.run(admin, [], ['first'])).toBe('first');
    expect(await admin.script('EXISTS', script.sha)).toEqual([1]);
    expect(await script.run(admin, [], ['second'])).toBe('second');
  });

  it('rejects promptly and logs instead of crashing when Redis is unreachable', async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const coord = new RedisCoord({
      url: `redis://127.0.0.1:${port}`,
      prefix: 'unreachable',
      logger: createLogger({ name: 'test', destination }),
    });
    const started = performance.now();
    await expect(coord.incrementBy('k', 1)).rejects.toThrow();
    await expect(coord.rateLimit('k', 1, 1_000)).rejects.toThrow();
    expect(await coord.ping()).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
    await coord.close();
    expect(lines.some((line) => line.includes('redis connection failed'))).toBe(true);
  });

  it('rejects at once during an outage, then recovers with its subscriptions', async () => {
    const proxy = await startProxy(new URL(url));
    const coords = isolated();
    const logger = createLogger({
      name: 'test',
      destination: new Writable({ write: (_chunk, _encoding, done) => done() }),
    });
    const coord = new RedisCoord({ url: `redis://127.0.0.1:${proxy.port}`, prefix: coords.prefix, logger });
    const messages: string[] = [];
    let afterOutage: () => void = () => undefined;
    const receivedAfterOutage = new Promise<void>((resolve) => {
      afterOutage = resolve;
    });
    await coord.subscribe('config', (message) => {
      messages.push(message);
      if (message === 'after-outage') afterOutage();
    });
    expect(await coord.incrementBy('k', 1)).toBe(1);

    await proxy.stop();
    const started = performance.now();
    await expect(coord.incrementBy('k', 1)).rejects.toThrow();
    expect(await coord.ping()).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);

    await proxy.restart();
    // ioredis reconnects on its own schedule: wait for its reconnection and resubscription, then check each.
    await coord.ready();
    expect(await coord.ping()).toBe(true);
    expect(await coord.incrementBy('k', 1)).toBe(2);
    await coords.replica().publish('config', 'after-outage');
    await receivedAfterOutage;
    expect(messages).toContain('after-outage');
    await coord.close();
    await proxy.stop();
  });

  it('creates a Redis coord when given a URL and an in-process one otherwise', async () => {
    const prefix = `test-${randomUUID()}`;
    const [redisCoord, memoryCoord] = await Promise.all([createCoord({ redisUrl: url, prefix }), createCoord({})]);
    expect(redisCoord).toBeInstanceOf(RedisCoord);
    expect(memoryCoord).toBeInstanceOf(MemoryCoord);
    expect(await redisCoord.ping()).toBe(true);
    await Promise.all([redisCoord.close(), memoryCoord.close()]);
  });
});

/** A TCP proxy to the real Redis that a test can cut (every connection dropped) and restore on the same port. */
async function startProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = async (port: number) => {
    const next = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => next.listen(port, '127.0.0.1', resolve));
    server = next;
    const address = next.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return address.port;
  };
  const port = await listen(0);
  return {
    port,
    stop: async () => {
      const current = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      if (current !== undefined) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    restart: async () => {
      await listen(port);
    },
  };
}

/** A port nothing listens on: bind an ephemeral port, then free it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

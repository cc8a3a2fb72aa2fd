import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Coord, CounterIncrement, RateDecision, SlotLease } from './coord.js';
import { checkDelta, checkLimit, checkMilliseconds, counterValue, optionalMilliseconds } from './coord-arguments.js';
import type { CoordLogger } from './coord-logger.js';
import { closeConnection, superviseConnection } from './redis-connection.js';
import { acquireSlotScript, incrementScript, rateLimitScript, renewSlotScript } from './redis-scripts.js';
import { RedisSubscriber } from './redis-subscriber.js';

export interface RedisCoordOptions {
  /** `GW_REDIS_URL`, e.g. `redis://:password@redis:6379/0` (`rediss://` for TLS). */
  url: string;
  /** Every key and channel lives under `<prefix>:`, so tenants, services and tests sharing a server never collide. */
  prefix?: string;
  logger?: CoordLogger;
  /** A call that gets no reply in this time rejects (a stalled server must not hang requests). Default 2000. */
  commandTimeoutMs?: number;
  /** Give up on a TCP connect attempt after this long, then retry with backoff. Default 2000. */
  connectTimeoutMs?: number;
}

/**
 * Coordination shared by every replica through Redis. Each multi-step operation is one Lua script, so it is atomic,
 * and reads the server's clock, so replicas with skewed clocks agree (the in-process `MemoryCoord` uses its injected
 * clock instead).
 *
 * Key layout: `<prefix>:kv:<key>` counters and values (strings), `<prefix>:rate:<key>` limiter logs (sorted sets
 * of admissions by time), `<prefix>:slots:<key>` semaphores (sorted sets of lease ids by expiry), channel
 * `<prefix>:chan:<channel>`. Separate namespaces mean a counter and a limiter may share a name without a WRONGTYPE.
 *
 * Failure: the connection is opened eagerly at construction (not `lazyConnect`) so the first request does not pay
 * for the handshake and boot logs show an unreachable server at once. Every call rejects rather than hangs when
 * Redis is unreachable (one retry per request, no offline queue once connected, a command timeout), and connection
 * errors are logged, never thrown; callers choose to fail open or closed.
 */
export class RedisCoord implements Coord {
  readonly prefix: string;
  private readonly redis: Redis;
  private readonly subscriber: RedisSubscriber;
  private readonly memberPrefix = randomUUID();
  private sequence = 0;
  private closing: Promise<void> | undefined;

  constructor(options: RedisCoordOptions) {
    this.prefix = options.prefix ?? 'gw';
    this.redis = new Redis(options.url, {
      lazyConnect: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 2000,
      connectTimeout: options.connectTimeoutMs ?? 2000,
    });
    superviseConnection(this.redis, 'commands', options.logger);
    this.subscriber = new RedisSubscriber(() => {
      // The main connection may have turned its offline queue off already; the new one queues until its own ready.
      const connection = this.redis.duplicate({ enableOfflineQueue: true });
      superviseConnection(connection, 'subscriber', options.logger);
      return connection;
    }, options.logger);
  }

  /**
   * Resolves once both connections are up and the subscriptions are restored, after an outage included (waits for
   * ioredis's own reconnection, never polls).
   */
  async ready(): Promise<void> {
    const redis = this.redis;
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    await this.subscriber.ready();
  }

  async incrementBy(key: string, delta: number, ttlMs?: number): Promise<number> {
    const [value] = await this.incrementMany([{ key, delta, ttlMs }]);
    return value;
  }

  async incrementMany(increments: readonly CounterIncrement[]): Promise<number[]> {
    this.ensureOpen();
    const args = increments.flatMap(({ delta, ttlMs }) => [
      String(checkDelta(delta)),
      optionalMilliseconds('ttlMs', ttlMs),
    ]);
    if (increments.length === 0) return [];
    const values = (await incrementScript.run(
      this.redis,
      increments.map(({ key }) => this.valueKey(key)),
      args,
    )) as string[];
    return values.map(Number);
  }

  async getCounter(key: string): Promise<number> {
    this.ensureOpen();
    return counterValue(await this.redis.get(this.valueKey(key)));
  }

  async getCounters(keys: readonly string[]): Promise<number[]> {
    this.ensureOpen();
    if (keys.length === 0) return [];
    const values = await this.redis.mget(keys.map((key) => this.valueKey(key)));
    return values.map(counterValue);
  }

  async delete(key: string): Promise<void> {
    this.ensureOpen();
    await this.redis.del(this.valueKey(key));
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    this.ensureOpen();
    const ttl = checkMilliseconds('ttlMs', ttlMs);
    return (await this.redis.set(this.valueKey(key), value, 'PX', ttl, 'NX')) === 'OK';
  }

  async setValue(key: string, value: string, ttlMs: number): Promise<void> {
    this.ensureOpen();
    const ttl = checkMilliseconds('ttlMs', ttlMs);
    await this.redis.set(this.valueKey(key), value, 'PX', ttl);
  }

  async getValue(key: string): Promise<string | null> {
    this.ensureOpen();
    return this.redis.get(this.valueKey(key));
  }

  async rateLimit(key: string, limit: number, windowMs: number): Promise<RateDecision> {
    this.ensureOpen();
    const max = checkLimit(limit);
    const window = checkMilliseconds('windowMs', windowMs);
    const reply = await rateLimitScript.run(
      this.redis,
      [`${this.prefix}:rate:${key}`],
      [max, window, this.uniqueMember()],
    );
    const [allowed, count, retryAfterMs] = integers(reply, 3);
    return { allowed: allowed === 1, count, retryAfterMs };
  }

  async acquireSlot(key: string, limit: number, leaseMs: number): Promise<SlotLease | null> {
    this.ensureOpen();
    const max = checkLimit(limit);
    const lease = checkMilliseconds('leaseMs', leaseMs);
    const slotsKey = `${this.prefix}:slots:${key}`;
    const leaseId = this.uniqueMember();
    const acquired = await acquireSlotScript.run(this.redis, [slotsKey], [max, lease, leaseId]);
    if (acquired !== 1) return null;
    return {
      release: async () => {
        await this.redis.zrem(slotsKey, leaseId);
      },
      renew: async (renewMs: number) => {
        const extended = checkMilliseconds('leaseMs', renewMs);
        await renewSlotScript.run(this.redis, [slotsKey], [extended, leaseId]);
      },
    };
  }

  async publish(channel: string, message: string): Promise<void> {
    this.ensureOpen();
    await this.redis.publish(this.channelName(channel), message);
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    this.ensureOpen();
    return this.subscriber.subscribe(this.channelName(channel), listener);
  }

  async ping(): Promise<boolean> {
    if (this.closing !== undefined) return false;
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  /** Quits both connections; idempotent. */
  close(): Promise<void> {
    this.closing ??= Promise.all([closeConnection(this.redis), this.subscriber.close()]).then(() => undefined);
    return this.closing;
  }

  private ensureOpen(): void {
    if (this.closing !== undefined) throw new Error('coord: closed');
  }

  private valueKey(key: string): string {
    return `${this.prefix}:kv:${key}`;
  }

  private channelName(channel: string): string {
    return `${this.prefix}:chan:${channel}`;
  }

  /** Sorted-set members must be unique even for two admissions in the same millisecond from several replicas. */
  private uniqueMember(): string {
    this.sequence += 1;
    return `${this.memberPrefix}:${this.sequence}`;
  }
}

function integers(reply: unknown, length: number): number[] {
  if (
    Array.isArray(reply) &&
    reply.length === length &&
    reply.every((item): item is number => typeof item === 'number')
  )
    return reply;
  throw new Error(`coord: unexpected script reply ${JSON.stringify(reply)}`);
}

import type { Redis } from 'ioredis';
import type { CoordLogger } from './coord-logger.js';
import { ListenerRegistry, type MessageListener } from './listener-registry.js';
import { closeConnection } from './redis-connection.js';

/**
 * The subscriber side of pub/sub. A connection in subscriber mode can run nothing else, so it is a second
 * connection, opened on the first subscribe (most replicas publish far more often than they listen). One Redis
 * SUBSCRIBE per channel however many local listeners; UNSUBSCRIBE when the last one leaves. After a reconnect
 * ioredis resubscribes; messages published during the outage are lost, so listeners treat them as hints
 * (invalidations) and keep their own TTLs.
 */
export class RedisSubscriber {
  private connection: Redis | undefined;
  private readonly registry: ListenerRegistry;
  /** The SUBSCRIBE in flight or done per channel; later listeners wait for the same confirmation. */
  private readonly subscribed = new Map<string, Promise<unknown>>();

  constructor(
    private readonly open: () => Redis,
    logger: CoordLogger | undefined,
  ) {
    this.registry = new ListenerRegistry(logger);
  }

  /** Resolves once Redis confirms the subscription, so a message published afterwards is received. */
  async subscribe(channel: string, listener: MessageListener): Promise<() => Promise<void>> {
    const connection = this.connect();
    const added = this.registry.add(channel, listener);
    let confirmation = this.subscribed.get(channel);
    if (added.first || confirmation === undefined) {
      confirmation = connection.subscribe(channel);
      this.subscribed.set(channel, confirmation);
    }
    try {
      await confirmation;
    } catch (error) {
      if (added.remove()) this.subscribed.delete(channel);
      throw error;
    }
    return async () => {
      if (!added.remove()) return;
      this.subscribed.delete(channel);
      await connection.unsubscribe(channel);
    };
  }

  /**
   * Resolves once the subscriber connection is up and every subscription it had is restored: ioredis resubscribes
   * right after `ready`, and a PING answered on the same connection comes back after those SUBSCRIBE replies.
   */
  async ready(): Promise<void> {
    const connection = this.connection;
    if (connection === undefined) return;
    if (connection.status !== 'ready') await new Promise((resolve) => connection.once('ready', resolve));
    await connection.ping();
  }

  async close(): Promise<void> {
    this.registry.clear();
    this.subscribed.clear();
    if (this.connection !== undefined) await closeConnection(this.connection);
  }

  private connect(): Redis {
    if (this.connection === undefined) {
      const connection = this.open();
      connection.on('message', (channel: string, message: string) => this.registry.deliver(channel, message));
      this.connection = connection;
    }
    return this.connection;
  }
}

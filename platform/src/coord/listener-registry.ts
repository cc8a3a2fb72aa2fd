import type { CoordLogger } from './coord-logger.js';

export type MessageListener = (message: string) => void;

interface Subscription {
  readonly listener: MessageListener;
}

export interface AddedListener {
  /** True when this is the channel's first listener (the backing store must start listening). */
  readonly first: boolean;
  /** Removes the listener; true only for the removal that leaves the channel empty. Idempotent. */
  readonly remove: () => boolean;
}

/**
 * Local fan-out of channel messages to listeners. Each subscription is its own entry, so the same function
 * subscribed twice is delivered twice and unsubscribed independently. A listener that throws is logged and
 * never stops delivery to the others (nor, when called from a microtask, crashes the process).
 */
export class ListenerRegistry {
  private readonly channels = new Map<string, Set<Subscription>>();

  constructor(private readonly logger: CoordLogger | undefined) {}

  add(channel: string, listener: MessageListener): AddedListener {
    let subscriptions = this.channels.get(channel);
    const first = subscriptions === undefined;
    if (subscriptions === undefined) {
      subscriptions = new Set();
      this.channels.set(channel, subscriptions);
    }
    const subscription: Subscription = { listener };
    subscriptions.add(subscription);
    const owner = subscriptions;
    return {
      first,
      remove: () => {
        if (!owner.delete(subscription)) return false;
        if (owner.size > 0 || this.channels.get(channel) !== owner) return false;
        this.channels.delete(channel);
        return true;
      },
    };
  }

  /** Calls every listener of the channel now. */
  deliver(channel: string, message: string): void {
    const subscriptions = this.channels.get(channel);
    if (subscriptions === undefined) return;
    for (const subscription of [...subscriptions]) this.call(channel, subscription, message);
  }

  /** Calls every listener of the channel in its own microtask: publishing never runs listener code inline. */
  deliverLater(channel: string, message: string): void {
    const subscriptions = this.channels.get(channel);
    if (subscriptions === undefined) return;
    for (const subscription of [...subscriptions]) {
      queueMicrotask(() => {
        // A listener removed after publish but before delivery no longer wants the message.
        if (subscriptions.has(subscription)) this.call(channel, subscription, message);
      });
    }
  }

  clear(): void {
    this.channels.clear();
  }

  private call(channel: string, subscription: Subscription, message: string): void {
    try {
      subscription.listener(message);
    } catch (error) {
      this.logger?.warn({ err: error, channel }, 'coord subscriber threw; other subscribers still receive the message');
    }
  }
}

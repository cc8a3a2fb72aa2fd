import type { Clock, Coord, Logger } from '@gw/platform';

/**
 * An in-memory copy of store state that the hot path reads without a store round trip. A write reloads locally and
 * publishes on a Coord channel so every replica reloads; because Redis pub/sub is at-most-once, a snapshot older
 * than `refreshIntervalMs` also reloads in the background on the next read.
 */
export class ReplicatedSnapshot<T> {
  private value: T;
  private loadedAt = Number.NEGATIVE_INFINITY;
  private unsubscribe: (() => Promise<void>) | null = null;
  private reloading: Promise<void> | null = null;
  private readonly reloadListeners = new Set<(value: T) => void>();

  constructor(
    private readonly options: {
      channel: string;
      initial: T;
      load: () => Promise<T>;
      coord: Coord;
      clock: Clock;
      logger: Logger;
      refreshIntervalMs?: number;
    },
  ) {
    this.value = options.initial;
  }

  async start(): Promise<void> {
    await this.reload();
    this.unsubscribe = await this.options.coord.subscribe(this.options.channel, () => this.reloadInBackground());
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  get current(): T {
    if (this.options.clock.now() - this.loadedAt > (this.options.refreshIntervalMs ?? 30_000))
      this.reloadInBackground();
    return this.value;
  }

  async reload(): Promise<void> {
    this.value = await this.options.load();
    this.loadedAt = this.options.clock.now();
    for (const listener of [...this.reloadListeners]) listener(this.value);
  }

  /**
   * The snapshot once it satisfies `condition`: at once when it already does, else at the reload that makes it so
   * (a write here or an invalidation from another replica). Waiting for a change to arrive never polls.
   */
  reached(condition: (value: T) => boolean): Promise<T> {
    if (condition(this.value)) return Promise.resolve(this.value);
    return new Promise((resolve) => {
      const listener = (value: T) => {
        if (!condition(value)) return;
        this.reloadListeners.delete(listener);
        resolve(value);
      };
      this.reloadListeners.add(listener);
    });
  }

  /** Reload here and tell every other replica to reload. */
  async changed(): Promise<void> {
    await this.reload();
    await this.options.coord
      .publish(this.options.channel, 'changed')
      .catch((error: unknown) =>
        this.options.logger.warn({ err: error, channel: this.options.channel }, 'invalidation not published'),
      );
  }

  private reloadInBackground(): void {
    if (this.reloading) return;
    this.loadedAt = this.options.clock.now();
    this.reloading = this.reload()
      .catch((error: unknown) =>
        this.options.logger.warn({ err: error, channel: this.options.channel }, 'snapshot reload failed'),
      )
      .finally(() => {
        this.reloading = null;
      });
  }
}

/**
 * A store whose hot-path reads come from a replicated snapshot: it names its channel and initial value, says how to
 * load the state, and reads `this.snapshot`; starting and stopping the replication is this class's.
 */
export abstract class SnapshotStore<T> {
  protected readonly snapshot: ReplicatedSnapshot<T>;

  protected constructor(options: Omit<ConstructorParameters<typeof ReplicatedSnapshot<T>>[0], 'load'>) {
    this.snapshot = new ReplicatedSnapshot<T>({ ...options, load: () => this.loadSnapshot() });
  }

  /** The state as the store holds it now (the snapshot's reload). */
  protected abstract loadSnapshot(): Promise<T>;

  start(): Promise<void> {
    return this.snapshot.start();
  }

  stop(): Promise<void> {
    return this.snapshot.stop();
  }
}

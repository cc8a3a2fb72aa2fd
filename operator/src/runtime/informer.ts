import type { Logger } from '@gw/platform';
import { keyOf, type KubeApi, type KubeApiError, type KubeObject } from '../kube/kube-api.js';
import type { Timers } from './timers.js';
import type { BackoffPolicy } from './work-queue.js';

export type InformerEvent = 'upsert' | 'delete';

export interface InformerOptions {
  api: KubeApi;
  apiVersion: string;
  kind: string;
  /** Undefined: every namespace. */
  namespace?: string;
  timers: Timers;
  logger: Logger;
  backoff?: BackoffPolicy;
  onChange(event: InformerEvent, object: KubeObject): void;
}

/**
 * List + watch with a local cache. @kubernetes/client-node's ListWatch stops on any error other than 410 Gone or a
 * client-side timeout and leaves the restart to its caller; this one restarts itself: a normal close re-watches from
 * the last resourceVersion, 410 relists at once, any other error relists after an exponential backoff. A relist
 * reports objects deleted while the watch was down. Controllers share it through `InformerRegistry`
 * (docs/adr/0017-hand-written-controller-runtime.md).
 */
export class Informer {
  private readonly cache = new Map<string, KubeObject>();
  private resourceVersion = '';
  private stopWatch: (() => void) | undefined;
  private stopped = true;
  private failures = 0;
  private retryHandle: unknown;
  private hasSynced = false;
  /** Restarts after an error, for the metrics. */
  restarts = 0;

  constructor(private readonly options: InformerOptions) {}

  get synced(): boolean {
    return this.hasSynced;
  }

  get(key: string): KubeObject | undefined {
    return this.cache.get(key);
  }

  list(): KubeObject[] {
    return [...this.cache.values()];
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.relist();
  }

  stop(): void {
    this.stopped = true;
    this.stopWatch?.();
    this.stopWatch = undefined;
    if (this.retryHandle !== undefined) this.options.timers.clearTimeout(this.retryHandle);
  }

  private retryLater(reason: string, error: unknown): void {
    const { baseDelayMs, maxDelayMs } = this.options.backoff ?? { baseDelayMs: 1_000, maxDelayMs: 30_000 };
    const delay = Math.min(baseDelayMs * 2 ** this.failures, maxDelayMs);
    this.failures += 1;
    this.restarts += 1;
    this.options.logger.warn(
      { kind: this.options.kind, err: error, delayMs: delay },
      `${reason}; relisting after backoff`,
    );
    this.retryHandle = this.options.timers.setTimeout(() => {
      this.retryHandle = undefined;
      void this.relist();
    }, delay);
  }

  private async relist(): Promise<void> {
    if (this.stopped) return;
    const { api, apiVersion, kind, namespace } = this.options;
    let listed;
    try {
      listed = await api.list(apiVersion, kind, namespace);
    } catch (error) {
      return this.retryLater(`listing ${kind} failed`, error);
    }
    if (this.stopped) return;
    const seen = new Set<string>();
    for (const item of listed.items) {
      const key = keyOf(item);
      seen.add(key);
      const previous = this.cache.get(key);
      this.cache.set(key, item);
      if (previous?.metadata.resourceVersion !== item.metadata.resourceVersion) this.options.onChange('upsert', item);
    }
    for (const [key, object] of [...this.cache]) {
      if (seen.has(key)) continue;
      this.cache.delete(key);
      this.options.onChange('delete', object);
    }
    this.resourceVersion = listed.resourceVersion;
    this.hasSynced = true;
    await this.watch();
  }

  private async watch(): Promise<void> {
    if (this.stopped) return;
    const { api, apiVersion, kind, namespace } = this.options;
    try {
      this.stopWatch = await api.watch(apiVersion, kind, namespace, this.resourceVersion, {
        onEvent: (type, object) => {
          this.failures = 0;
          if (object.metadata.resourceVersion) this.resourceVersion = object.metadata.resourceVersion;
          if (type === 'BOOKMARK') return;
          const key = keyOf(object);
          if (type === 'DELETED') {
            this.cache.delete(key);
            this.options.onChange('delete', object);
          } else {
            this.cache.set(key, object);
            this.options.onChange('upsert', object);
          }
        },
        onDone: (error) => this.watchEnded(error),
      });
    } catch (error) {
      this.retryLater(`watching ${kind} failed`, error);
    }
  }

  private watchEnded(error: KubeApiError | undefined): void {
    this.stopWatch = undefined;
    if (this.stopped) return;
    if (error === undefined) {
      void this.watch(); // the server closes watches now and then; resume where we were
    } else if (error.status === 410) {
      void this.relist(); // our resourceVersion was compacted away
    } else {
      this.retryLater(`the ${this.options.kind} watch failed`, error);
    }
  }
}

import type { Logger } from '@gw/platform';
import type { KubeApi, KubeObject } from '../kube/kube-api.js';
import { Informer, type InformerEvent } from './informer.js';
import type { Timers } from './timers.js';
import type { BackoffPolicy } from './work-queue.js';

export type InformerListener = (event: InformerEvent, object: KubeObject) => void;

/**
 * One list + watch and one cache for one kind in one scope, whatever the number of controllers reading it. Each
 * listener gets every change; a listener that joins once the cache is filled is first handed the cached objects
 * as upserts (client-go's shared informer does the same), so it never misses what was there before it came. The
 * watch runs while at least one listener is subscribed and has asked it to start.
 */
export class SharedInformer {
  private readonly informer: Informer;
  private readonly listeners = new Set<InformerListener>();
  private starting: Promise<void> | undefined;

  constructor(options: {
    api: KubeApi;
    timers: Timers;
    logger: Logger;
    apiVersion: string;
    kind: string;
    namespace?: string;
    backoff?: BackoffPolicy;
  }) {
    this.informer = new Informer({
      ...options,
      onChange: (event, object) => {
        for (const listener of [...this.listeners]) listener(event, object);
      },
    });
  }

  get synced(): boolean {
    return this.informer.synced;
  }

  get restarts(): number {
    return this.informer.restarts;
  }

  get(key: string): KubeObject | undefined {
    return this.informer.get(key);
  }

  list(): KubeObject[] {
    return this.informer.list();
  }

  /** Subscribes; returns the unsubscribe function. The last one to leave stops the watch. */
  subscribe(listener: InformerListener): () => void {
    this.listeners.add(listener);
    if (this.informer.synced) for (const object of this.informer.list()) listener('upsert', object);
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
      this.informer.stop();
      this.starting = undefined;
    };
  }

  /** Lists and opens the watch on the first call; later calls wait for that same first list. */
  start(): Promise<void> {
    this.starting ??= this.informer.start();
    return this.starting;
  }
}

/** The informer key: one per API version, kind and namespace (undefined: every namespace). */
function scopeKey(apiVersion: string, kind: string, namespace: string | undefined): string {
  return `${apiVersion}|${kind}|${namespace ?? '*'}`;
}

/**
 * Hands every controller that asks for the same kind and namespace the same informer, so the operator opens one
 * watch and keeps one cache per kind and namespace however many controllers react to that kind (a Secret change
 * matters to four of them, a Gateway change to six). See docs/adr/0017-hand-written-controller-runtime.md.
 */
export class InformerRegistry {
  private readonly informers = new Map<string, SharedInformer>();

  constructor(private readonly options: { api: KubeApi; timers: Timers; logger: Logger; backoff?: BackoffPolicy }) {}

  informer(apiVersion: string, kind: string, namespace?: string): SharedInformer {
    const key = scopeKey(apiVersion, kind, namespace);
    let informer = this.informers.get(key);
    if (informer === undefined) {
      informer = new SharedInformer({
        ...this.options,
        apiVersion,
        kind,
        ...(namespace === undefined ? {} : { namespace }),
      });
      this.informers.set(key, informer);
    }
    return informer;
  }

  /** How many informers the registry holds (one per API version, kind and namespace asked for). */
  get size(): number {
    return this.informers.size;
  }
}

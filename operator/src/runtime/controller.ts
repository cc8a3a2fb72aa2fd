import type { Logger } from '@gw/platform';
import type { KubeObject } from '../kube/kube-api.js';
import type { OperatorMetrics } from './metrics.js';
import type { InformerRegistry, SharedInformer } from './shared-informers.js';
import type { Timers } from './timers.js';
import { WorkQueue, type BackoffPolicy } from './work-queue.js';

export interface ReconcileResult {
  /** Reconcile again after this long even without a change (waiting on a rollout, a gateway coming up). */
  requeueAfterMs?: number;
}

export interface Reconciler {
  apiVersion: string;
  kind: string;
  /** Level-based and idempotent: called with the current object whatever changed. Throwing retries with backoff. */
  reconcile(object: KubeObject): Promise<ReconcileResult>;
}

/** Another kind whose changes requeue objects of the reconciled kind (a rotated Secret, a Gateway coming up). */
export interface SecondaryWatch {
  apiVersion: string;
  kind: string;
  /** Keys ("namespace/name") of the reconciled objects to requeue. */
  map(object: KubeObject, primaries: readonly KubeObject[]): string[];
}

export interface ControllerOptions {
  /** Where the controller gets its informers; controllers built on one registry share one watch per kind. */
  informers: InformerRegistry;
  timers: Timers;
  logger: Logger;
  metrics: OperatorMetrics;
  reconciler: Reconciler;
  namespace?: string;
  resyncMs: number;
  workers?: number;
  backoff?: BackoffPolicy;
  watches?: SecondaryWatch[];
}

/**
 * One kind's control loop: shared informers feed a per-object work queue, workers reconcile keys, failures back
 * off per key, a periodic resync requeues everything (drift made through the admin API is corrected then).
 */
export class Controller {
  private readonly primary: SharedInformer;
  private readonly secondary: { informer: SharedInformer; watch: SecondaryWatch }[];
  private readonly queue: WorkQueue;
  private unsubscribes: (() => void)[] = [];
  private resyncHandle: unknown;
  private workers: Promise<void>[] = [];

  constructor(private readonly options: ControllerOptions) {
    const { informers, timers, reconciler, namespace } = options;
    this.queue = new WorkQueue(timers, options.backoff);
    this.primary = informers.informer(reconciler.apiVersion, reconciler.kind, namespace);
    this.secondary = (options.watches ?? []).map((watch) => ({
      informer: informers.informer(watch.apiVersion, watch.kind, namespace),
      watch,
    }));
  }

  enqueue(object: KubeObject): void {
    this.queue.add(`${object.metadata.namespace ?? ''}/${object.metadata.name}`);
    this.updateDepth();
  }

  private updateDepth(): void {
    this.options.metrics.queueDepth.set({ kind: this.options.reconciler.kind }, this.queue.depth());
  }

  async start(): Promise<void> {
    this.unsubscribes = [
      this.primary.subscribe((_event, object) => this.enqueue(object)),
      ...this.secondary.map(({ informer, watch }) =>
        informer.subscribe((_event, object) => {
          for (const key of watch.map(object, this.primary.list())) this.queue.add(key);
          this.updateDepth();
        }),
      ),
    ];
    await Promise.all([this.primary.start(), ...this.secondary.map(({ informer }) => informer.start())]);
    this.scheduleResync();
    this.workers = Array.from({ length: this.options.workers ?? 2 }, () => this.work());
  }

  private scheduleResync(): void {
    this.resyncHandle = this.options.timers.setTimeout(() => {
      for (const object of this.primary.list()) this.enqueue(object);
      this.scheduleResync();
    }, this.options.resyncMs);
  }

  private async work(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      await this.process(key);
      this.queue.done(key);
      this.updateDepth();
    }
  }

  private async process(key: string): Promise<void> {
    const { reconciler, metrics, logger, timers } = this.options;
    const object = this.primary.get(key);
    if (object === undefined) return; // gone; finalizers did the cleanup while it existed
    const started = timers.now();
    try {
      const result = await reconciler.reconcile(object);
      this.queue.forget(key);
      if (result.requeueAfterMs !== undefined) this.queue.addAfter(key, result.requeueAfterMs);
      metrics.reconciles.inc({ kind: reconciler.kind, result: 'success' });
    } catch (error) {
      const delayMs = this.queue.addRateLimited(key);
      metrics.reconciles.inc({ kind: reconciler.kind, result: 'error' });
      metrics.errors.inc({ kind: reconciler.kind });
      logger.warn({ err: error, kind: reconciler.kind, key, retryInMs: delayMs }, 'reconcile failed');
    } finally {
      metrics.duration.observe({ kind: reconciler.kind }, (timers.now() - started) / 1_000);
      metrics.watchRestarts.set({ kind: reconciler.kind }, this.primary.restarts);
    }
  }

  async stop(): Promise<void> {
    if (this.resyncHandle !== undefined) this.options.timers.clearTimeout(this.resyncHandle);
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.unsubscribes = [];
    this.queue.shutDown();
    await Promise.all(this.workers);
  }
}

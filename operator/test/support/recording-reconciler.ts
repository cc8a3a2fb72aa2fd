import { keyOf, type KubeObject } from '../../src/kube/kube-api.js';
import type { Reconciler, ReconcileResult } from '../../src/runtime/controller.js';

/**
 * A reconciler that records what it was asked to reconcile ("namespace/name@resourceVersion") and lets a test wait
 * for a condition on that record: the wait ends on the reconcile that makes it true, never on a timer.
 */
export class RecordingReconciler implements Reconciler {
  readonly seen: string[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly apiVersion: string,
    readonly kind: string,
  ) {}

  async reconcile(object: KubeObject): Promise<ReconcileResult> {
    this.seen.push(`${keyOf(object)}@${object.metadata.resourceVersion ?? ''}`);
    for (const listener of [...this.listeners]) listener();
    return {};
  }

  /** Keys reconciled so far, without versions, in order. */
  keys(): string[] {
    return this.seen.map((entry) => entry.slice(0, entry.indexOf('@')));
  }

  /** Resolves once `condition` holds (checked now and after each reconcile). */
  until(condition: (reconciler: RecordingReconciler) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!condition(this)) return;
        this.listeners.delete(check);
        resolve();
      };
      this.listeners.add(check);
      check();
    });
  }

  /** Resolves once `key` was reconciled at `resourceVersion` (any version when omitted). */
  reconciled(key: string, resourceVersion?: string): Promise<void> {
    return this.until((reconciler) =>
      reconciler.seen.some((entry) =>
        resourceVersion === undefined ? entry.startsWith(`${key}@`) : entry === `${key}@${resourceVersion}`,
      ),
    );
  }
}

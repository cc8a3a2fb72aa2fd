import type { KubeApi, KubeObject } from '../../src/kube/kube-api.js';
import { stillWaiting } from '../support/change-signal.js';

/** The objects of one kind in one namespace, as a watch on them sees them. */
export interface WatchScope {
  apiVersion: string;
  kind: string;
  namespace: string;
}

/** The objects of the scope by name, as of the latest watch event. */
export type ObjectsByName = ReadonlyMap<string, KubeObject>;

/**
 * Resolves once `condition` holds on the scope's objects: it lists them, checks once, then watches from the list's
 * resourceVersion and re-checks on every event, so a condition already true resolves and none is missed in between.
 * A watch the server closes is started again from a fresh list. There is no clock: a condition that never holds ends
 * with the test's own timeout, which aborts the test's `signal`; the wait then rejects naming `what`.
 */
export function watchUntil(
  api: KubeApi,
  scope: WatchScope,
  what: string,
  condition: (objects: ObjectsByName) => boolean,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let stopWatch: (() => void) | undefined;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      stopWatch?.();
      signal?.removeEventListener('abort', abort);
      if (error) reject(error);
      else resolve();
    };
    const abort = () => settle(stillWaiting(signal, what));
    const watch = async () => {
      const listed = await api.list(scope.apiVersion, scope.kind, scope.namespace);
      const objects = new Map(listed.items.map((object) => [object.metadata.name, object]));
      const check = () => {
        if (condition(objects)) settle();
      };
      const stop = await api.watch(scope.apiVersion, scope.kind, scope.namespace, listed.resourceVersion, {
        onEvent: (type, object) => {
          if (type === 'BOOKMARK') return;
          if (type === 'DELETED') objects.delete(object.metadata.name);
          else objects.set(object.metadata.name, object);
          check();
        },
        onDone: () => {
          if (!settled) watch().catch(settle);
        },
      });
      if (settled) return stop();
      stopWatch = stop;
      check();
    };
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    watch().catch(settle);
  });
}

/** The Ready condition of an object that reports conditions in its status. */
export function readyCondition(
  object: KubeObject | undefined,
): { type: string; status: string; reason: string } | undefined {
  const status = object?.status as { conditions?: { type: string; status: string; reason: string }[] } | undefined;
  return status?.conditions?.find((condition) => condition.type === 'Ready');
}

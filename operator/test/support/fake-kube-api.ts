import { isDeepStrictEqual } from 'node:util';
import {
  KubeApiError,
  keyOf,
  type KubeApi,
  type KubeObject,
  type ObjectList,
  type ObjectRef,
  type WatchEventType,
  type WatchHandlers,
} from '../../src/kube/kube-api.js';

type Json = Record<string, unknown>;

/** RFC 7386 JSON merge patch. */
export function mergePatchValue(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return structuredClone(patch);
  const result: Json =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Json) } : {};
  for (const [key, value] of Object.entries(patch as Json)) {
    if (value === null) delete result[key];
    else result[key] = mergePatchValue(result[key], value);
  }
  return result;
}

interface Watcher {
  apiVersion: string;
  kind: string;
  namespace: string | undefined;
  handlers: WatchHandlers;
}

/**
 * An in-memory API server for unit tests: resourceVersions, generation on spec changes, finalizers holding
 * deletion, compare-and-swap on resourceVersion, create-once, and watches. No validation or field ownership: the
 * real rules are tested against the test API server.
 */
export class FakeKubeApi implements KubeApi {
  private readonly objects = new Map<string, KubeObject>();
  private readonly watchers = new Set<Watcher>();
  private readonly watchListeners = new Set<() => void>();
  private version = 1;
  private uid = 1;
  /** Every write, as "VERB Kind namespace/name". */
  readonly writes: string[] = [];
  /** Every list and watch call, as "LIST Kind namespace" or "WATCH Kind namespace" ("*" for every namespace). */
  readonly reads: string[] = [];

  private storeKey(ref: ObjectRef): string {
    return `${ref.apiVersion}|${ref.kind}|${ref.namespace ?? ''}|${ref.name}`;
  }

  private emit(type: WatchEventType, object: KubeObject): void {
    for (const watcher of this.watchers) {
      if (watcher.apiVersion !== object.apiVersion || watcher.kind !== object.kind) continue;
      if (watcher.namespace !== undefined && watcher.namespace !== object.metadata.namespace) continue;
      watcher.handlers.onEvent(type, structuredClone(object));
    }
  }

  private store(object: KubeObject, previous: KubeObject | undefined, verb: string): KubeObject {
    const stored = structuredClone(object);
    stored.metadata.resourceVersion = String(++this.version);
    stored.metadata.uid = previous?.metadata.uid ?? `uid-${this.uid++}`;
    stored.metadata.creationTimestamp =
      previous?.metadata.creationTimestamp ?? new Date(Date.UTC(2026, 0, 1, 0, 0, this.uid)).toISOString();
    const specChanged = previous === undefined || !isDeepStrictEqual(previous.spec, stored.spec);
    stored.metadata.generation = (previous?.metadata.generation ?? 0) + (specChanged ? 1 : 0);
    if (previous?.metadata.deletionTimestamp) stored.metadata.deletionTimestamp = previous.metadata.deletionTimestamp;
    if (stored.metadata.deletionTimestamp && (stored.metadata.finalizers ?? []).length === 0) {
      this.objects.delete(
        this.storeKey({ ...stored, name: stored.metadata.name, namespace: stored.metadata.namespace }),
      );
      this.writes.push(`${verb} ${stored.kind} ${keyOf(stored)}`);
      this.emit('DELETED', stored);
      return structuredClone(stored);
    }
    this.objects.set(
      this.storeKey({
        apiVersion: stored.apiVersion,
        kind: stored.kind,
        name: stored.metadata.name,
        ...(stored.metadata.namespace === undefined ? {} : { namespace: stored.metadata.namespace }),
      }),
      stored,
    );
    this.writes.push(`${verb} ${stored.kind} ${keyOf(stored)}`);
    this.emit(previous ? 'MODIFIED' : 'ADDED', stored);
    return structuredClone(stored);
  }

  private existing(ref: ObjectRef): KubeObject {
    const object = this.objects.get(this.storeKey(ref));
    if (!object) throw new KubeApiError(404, 'NotFound', `${ref.kind} "${ref.name}" not found`);
    return object;
  }

  async get(ref: ObjectRef): Promise<KubeObject | null> {
    const object = this.objects.get(this.storeKey(ref));
    return object ? structuredClone(object) : null;
  }

  async list(apiVersion: string, kind: string, namespace?: string): Promise<ObjectList> {
    this.reads.push(`LIST ${kind} ${namespace ?? '*'}`);
    const items = [...this.objects.values()].filter(
      (object) =>
        object.apiVersion === apiVersion &&
        object.kind === kind &&
        (namespace === undefined || object.metadata.namespace === namespace),
    );
    return { items: structuredClone(items), resourceVersion: String(this.version) };
  }

  async watch(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    _resourceVersion: string,
    handlers: WatchHandlers,
  ): Promise<() => void> {
    this.reads.push(`WATCH ${kind} ${namespace ?? '*'}`);
    const watcher = { apiVersion, kind, namespace, handlers };
    this.watchers.add(watcher);
    this.watchesChanged();
    return () => {
      this.watchers.delete(watcher);
      this.watchesChanged();
    };
  }

  /** Ends every open watch, as an API server restart or a dropped connection does. */
  breakWatches(error?: KubeApiError): void {
    const watchers = [...this.watchers];
    this.watchers.clear();
    this.watchesChanged();
    for (const watcher of watchers) watcher.handlers.onDone(error);
  }

  /** Synchronous view of one kind, as an informer cache gives reconcilers their peers. */
  objectsOf(kind: string): KubeObject[] {
    return [...this.objects.values()].filter((object) => object.kind === kind).map((object) => structuredClone(object));
  }

  watcherCount(): number {
    return this.watchers.size;
  }

  /** Resolves once exactly `count` watches are open: a test waits for the re-watch itself, not for a number of ticks. */
  untilWatching(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.watchers.size !== count) return;
        this.watchListeners.delete(check);
        resolve();
      };
      this.watchListeners.add(check);
      check();
    });
  }

  private watchesChanged(): void {
    for (const listener of [...this.watchListeners]) listener();
  }

  /** Open watches, one "Kind namespace" entry each ("*" for every namespace), sorted: what a shared informer saves. */
  openWatches(): string[] {
    return [...this.watchers].map((watcher) => `${watcher.kind} ${watcher.namespace ?? '*'}`).sort();
  }

  async create(object: KubeObject): Promise<KubeObject | null> {
    const ref = {
      apiVersion: object.apiVersion,
      kind: object.kind,
      name: object.metadata.name,
      ...(object.metadata.namespace === undefined ? {} : { namespace: object.metadata.namespace }),
    };
    if (this.objects.has(this.storeKey(ref))) return null;
    return this.store(object, undefined, 'CREATE');
  }

  async apply(object: KubeObject, _fieldManager: string): Promise<KubeObject> {
    const ref = {
      apiVersion: object.apiVersion,
      kind: object.kind,
      name: object.metadata.name,
      ...(object.metadata.namespace === undefined ? {} : { namespace: object.metadata.namespace }),
    };
    const previous = this.objects.get(this.storeKey(ref));
    const merged = previous
      ? ({
          ...previous,
          ...structuredClone(object),
          metadata: { ...previous.metadata, ...object.metadata },
          status: previous.status,
        } as KubeObject)
      : object;
    if (
      previous &&
      isDeepStrictEqual(
        { ...merged, metadata: { ...merged.metadata, resourceVersion: undefined } },
        { ...previous, metadata: { ...previous.metadata, resourceVersion: undefined } },
      )
    ) {
      return structuredClone(previous);
    }
    return this.store(merged, previous, 'APPLY');
  }

  async mergePatch(ref: ObjectRef, patch: Json): Promise<KubeObject> {
    const previous = this.existing(ref);
    const expected = (patch.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
    if (expected !== undefined && expected !== previous.metadata.resourceVersion)
      throw new KubeApiError(409, 'Conflict', 'the object has been modified');
    return this.store(mergePatchValue(previous, patch) as KubeObject, previous, 'PATCH');
  }

  async patchStatus(ref: ObjectRef, status: Json): Promise<KubeObject> {
    const previous = this.existing(ref);
    const next = { ...structuredClone(previous), status: mergePatchValue(previous.status, status) } as KubeObject;
    return this.store(next, previous, 'PATCHSTATUS');
  }

  async replace(object: KubeObject): Promise<KubeObject> {
    const ref = {
      apiVersion: object.apiVersion,
      kind: object.kind,
      name: object.metadata.name,
      ...(object.metadata.namespace === undefined ? {} : { namespace: object.metadata.namespace }),
    };
    const previous = this.existing(ref);
    if (object.metadata.resourceVersion !== previous.metadata.resourceVersion)
      throw new KubeApiError(409, 'Conflict', 'the object has been modified');
    return this.store({ ...object, status: previous.status }, previous, 'REPLACE');
  }

  async delete(ref: ObjectRef): Promise<void> {
    const previous = this.objects.get(this.storeKey(ref));
    if (!previous) return;
    const marked = structuredClone(previous);
    marked.metadata.deletionTimestamp ??= new Date(Date.UTC(2026, 0, 2)).toISOString();
    this.store(
      marked,
      { ...previous, metadata: { ...previous.metadata, deletionTimestamp: marked.metadata.deletionTimestamp } },
      'DELETE',
    );
  }
}

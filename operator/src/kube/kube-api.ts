/** Kubernetes objects as plain JSON; the operator's own kinds are parsed with their zod schemas where read. */
export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

export interface ObjectList {
  items: KubeObject[];
  resourceVersion: string;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

export interface WatchHandlers {
  onEvent(type: WatchEventType, object: KubeObject): void;
  /** The watch ended: undefined when the server closed it normally, else the error (410 Gone carries status 410). */
  onDone(error: KubeApiError | undefined): void;
}

/** A refusal from the API server, with its HTTP status (409 conflict, 404 not found, 410 gone, 422 invalid). */
export class KubeApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }
}

export function isStatus(error: unknown, status: number): boolean {
  return error instanceof KubeApiError && error.status === status;
}

/**
 * The few API verbs the operator uses. The HTTP implementation speaks to a real API server (or the test server);
 * reconciler unit tests use the in-memory fake.
 */
export interface KubeApi {
  get(ref: ObjectRef): Promise<KubeObject | null>;
  list(apiVersion: string, kind: string, namespace?: string): Promise<ObjectList>;
  /** Starts a watch from a resourceVersion; returns a stop function. */
  watch(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    resourceVersion: string,
    handlers: WatchHandlers,
  ): Promise<() => void>;
  /** Creates; null when an object of that name exists already (create-once semantics). */
  create(object: KubeObject): Promise<KubeObject | null>;
  /** Server-side apply as `fieldManager`, forcing ownership of the fields it sets. */
  apply(object: KubeObject, fieldManager: string): Promise<KubeObject>;
  /** JSON merge patch; with `resourceVersion` in the patch's metadata it is a compare-and-swap (409 on a race). */
  mergePatch(ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeObject>;
  /** JSON merge patch of the status subresource. */
  patchStatus(ref: ObjectRef, status: Record<string, unknown>): Promise<KubeObject>;
  /** Full replace with the object's resourceVersion (409 when stale). */
  replace(object: KubeObject): Promise<KubeObject>;
  /** Deletes; resolves when absent already. */
  delete(ref: ObjectRef): Promise<void>;
}

export function refOf(object: KubeObject): ObjectRef {
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    name: object.metadata.name,
    ...(object.metadata.namespace === undefined ? {} : { namespace: object.metadata.namespace }),
  };
}

export function keyOf(object: { metadata: { namespace?: string; name: string } }): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name}`;
}

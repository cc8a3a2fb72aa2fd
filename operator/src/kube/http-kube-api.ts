import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import {
  KubeApiError,
  refOf,
  type KubeApi,
  type KubeObject,
  type ObjectList,
  type ObjectRef,
  type WatchEventType,
  type WatchHandlers,
} from './kube-api.js';
import { resourcePath, resourceType } from './resources.js';

/**
 * KubeApi over raw JSON HTTP, authenticated by @kubernetes/client-node's KubeConfig (kubeconfig file or in-cluster
 * service account). Raw JSON because the typed client re-serialises bodies through its model classes.
 */
export class HttpKubeApi implements KubeApi {
  private readonly server: URL;

  constructor(private readonly kubeConfig: KubeConfig) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('the kubeconfig has no current cluster');
    this.server = new URL(cluster.server);
  }

  private async open(method: string, path: string, body: unknown, contentType: string): Promise<IncomingMessage> {
    const options: RequestOptions = {
      protocol: this.server.protocol,
      hostname: this.server.hostname,
      port: this.server.port,
      method,
      path,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': contentType }) },
    };
    await this.kubeConfig.applyToHTTPSOptions(options);
    const send = this.server.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const outgoing = send(options, resolve);
      outgoing.on('error', (error) =>
        reject(new KubeApiError(0, 'Unreachable', `API server unreachable: ${error.message}`)),
      );
      outgoing.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  private async call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<unknown> {
    const response = await this.open(method, path, body, contentType);
    const text = await readAll(response);
    const parsed: unknown = text === '' ? null : JSON.parse(text);
    const status = response.statusCode ?? 0;
    if (status >= 300) {
      const failure = (parsed ?? {}) as { reason?: string; message?: string };
      throw new KubeApiError(
        status,
        failure.reason ?? 'Unknown',
        failure.message ?? `HTTP ${status} on ${method} ${path}`,
      );
    }
    return parsed;
  }

  private path(ref: ObjectRef, subresource?: string): string {
    return resourcePath(resourceType(ref.apiVersion, ref.kind), ref.namespace, ref.name, subresource);
  }

  async get(ref: ObjectRef): Promise<KubeObject | null> {
    try {
      return (await this.call('GET', this.path(ref))) as KubeObject;
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) return null;
      throw error;
    }
  }

  async list(apiVersion: string, kind: string, namespace?: string): Promise<ObjectList> {
    const list = (await this.call('GET', resourcePath(resourceType(apiVersion, kind), namespace))) as {
      items: KubeObject[];
      metadata: { resourceVersion: string };
    };
    // List items carry no apiVersion/kind on some servers; the operator's code relies on them.
    const items = list.items.map((item) => ({ ...item, apiVersion, kind }));
    return { items, resourceVersion: list.metadata.resourceVersion };
  }

  async watch(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    resourceVersion: string,
    handlers: WatchHandlers,
  ): Promise<() => void> {
    const query = new URLSearchParams({ watch: '1', resourceVersion, allowWatchBookmarks: 'true' });
    const response = await this.open(
      'GET',
      `${resourcePath(resourceType(apiVersion, kind), namespace)}?${query.toString()}`,
      undefined,
      'application/json',
    );
    if ((response.statusCode ?? 0) >= 300) {
      const text = await readAll(response);
      const failure = (safeParse(text) ?? {}) as { reason?: string; message?: string };
      handlers.onDone(new KubeApiError(response.statusCode ?? 0, failure.reason ?? 'Unknown', failure.message ?? text));
      return () => undefined;
    }
    let finished = false;
    const finish = (error: KubeApiError | undefined): void => {
      if (finished) return;
      finished = true;
      handlers.onDone(error);
    };
    let pending = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      pending += chunk;
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        const line = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        if (line !== '') {
          const event = JSON.parse(line) as {
            type: WatchEventType | 'ERROR';
            object: KubeObject & { code?: number; reason?: string; message?: string };
          };
          if (event.type === 'ERROR') {
            finish(
              new KubeApiError(
                event.object.code ?? 500,
                event.object.reason ?? 'Unknown',
                event.object.message ?? 'watch error',
              ),
            );
            response.destroy();
            return;
          }
          handlers.onEvent(event.type, { ...event.object, apiVersion, kind });
        }
        newline = pending.indexOf('\n');
      }
    });
    response.on('end', () => finish(undefined));
    response.on('error', (error) => finish(new KubeApiError(0, 'StreamError', error.message)));
    response.on('close', () => finish(undefined));
    return () => {
      finished = true;
      response.destroy();
    };
  }

  async create(object: KubeObject): Promise<KubeObject | null> {
    const type = resourceType(object.apiVersion, object.kind);
    try {
      return (await this.call('POST', resourcePath(type, object.metadata.namespace), object)) as KubeObject;
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 409 && error.reason === 'AlreadyExists') return null;
      throw error;
    }
  }

  async apply(object: KubeObject, fieldManager: string): Promise<KubeObject> {
    const query = new URLSearchParams({ fieldManager, force: 'true' });
    return (await this.call(
      'PATCH',
      `${this.path(refOf(object))}?${query.toString()}`,
      object,
      'application/apply-patch+yaml',
    )) as KubeObject;
  }

  async mergePatch(ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeObject> {
    return (await this.call('PATCH', this.path(ref), patch, 'application/merge-patch+json')) as KubeObject;
  }

  async patchStatus(ref: ObjectRef, status: Record<string, unknown>): Promise<KubeObject> {
    return (await this.call(
      'PATCH',
      this.path(ref, 'status'),
      { status },
      'application/merge-patch+json',
    )) as KubeObject;
  }

  async replace(object: KubeObject): Promise<KubeObject> {
    return (await this.call('PUT', this.path(refOf(object)), object)) as KubeObject;
  }

  async delete(ref: ObjectRef): Promise<void> {
    try {
      await this.call('DELETE', this.path(ref));
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 404) return;
      throw error;
    }
  }
}

function readAll(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => resolve(text));
    response.on('error', reject);
  });
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

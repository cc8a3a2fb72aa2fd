import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { KubeApiError, type KubeApi, type KubeObject, type ObjectList, type ObjectRef, type WatchHandlers } from '@gw/operator';
import type { TestCertificates } from '@gw/operator/kube-test-server';
import { startService, type RunningService } from './process.js';

// What the e2e operator suite needs beyond the harness: an https front for a provider simulator (ProviderKey base
// URLs are https only), a network partition between one operator replica and the API server, and a stand-in
// kubelet that runs a Deployment's container as a local process.

/** An https origin (certificate for 127.0.0.1 from the test CA) relaying every request to an http target. */
export async function startTlsFront(target: string, certificates: TestCertificates): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = createHttpsServer({ cert: certificates.serverCert, key: certificates.serverKey }, (request, response) => {
    const relayed = httpRequest({ host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    relayed.on('error', () => response.destroy());
    request.pipe(relayed);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A KubeApi that can be cut off from the API server: every call fails as unreachable and open watches end (their
 * informers then fail to re-watch and back off), as a replica behind a network partition sees it.
 */
export class PartitionableKubeApi implements KubeApi {
  private partitioned = false;
  private readonly watches = new Set<{ stop: () => void; handlers: WatchHandlers }>();

  constructor(private readonly inner: KubeApi) {}

  partition(): void {
    this.partitioned = true;
    const open = [...this.watches];
    this.watches.clear(); // before stopping, so a stop that reports its end does not report it twice
    for (const watch of open) {
      watch.stop();
      watch.handlers.onDone(undefined);
    }
  }

  heal(): void {
    this.partitioned = false;
  }

  private check(): void {
    if (this.partitioned) throw new KubeApiError(0, 'Unreachable', 'API server unreachable: network partition (test)');
  }

  async get(ref: ObjectRef): Promise<KubeObject | null> {
    this.check();
    return this.inner.get(ref);
  }

  async list(apiVersion: string, kind: string, namespace?: string): Promise<ObjectList> {
    this.check();
    return this.inner.list(apiVersion, kind, namespace);
  }

  async watch(apiVersion: string, kind: string, namespace: string | undefined, resourceVersion: string, handlers: WatchHandlers): Promise<() => void> {
    this.check();
    const entry = { stop: () => undefined as void, handlers };
    const guarded: WatchHandlers = {
      onEvent: (type, object) => {
        if (!this.partitioned) handlers.onEvent(type, object);
      },
      onDone: (error) => {
        if (this.watches.delete(entry)) handlers.onDone(error);
      },
    };
    this.watches.add(entry);
    try {
      entry.stop = await this.inner.watch(apiVersion, kind, namespace, resourceVersion, guarded);
    } catch (error) {
      this.watches.delete(entry);
      throw error;
    }
    return () => {
      this.watches.delete(entry);
      entry.stop();
    };
  }

  async create(object: KubeObject): Promise<KubeObject | null> {
    this.check();
    return this.inner.create(object);
  }

  async apply(object: KubeObject, fieldManager: string): Promise<KubeObject> {
    this.check();
    return this.inner.apply(object, fieldManager);
  }

  async mergePatch(ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeObject> {
    this.check();
    return this.inner.mergePatch(ref, patch);
  }

  async patchStatus(ref: ObjectRef, status: Record<string, unknown>): Promise<KubeObject> {
    this.check();
    return this.inner.patchStatus(ref, status);
  }

  async replace(object: KubeObject): Promise<KubeObject> {
    this.check();
    return this.inner.replace(object);
  }

  async delete(ref: ObjectRef): Promise<void> {
    this.check();
    return this.inner.delete(ref);
  }
}

type EnvVar = { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } };
interface DeploymentShape {
  spec: { template: { spec: { containers: { command: string[]; env: EnvVar[]; volumeMounts?: { name: string; mountPath: string }[] }[] } } };
}

/**
 * The kubelet's part for one Deployment: resolves its container's environment (values and Secret references, as
 * the pod would see them), runs its command as a local process, then reports the Deployment ready. `listen`
 * overrides where it listens (a port forward, in effect) and `volumes` maps mount paths to local folders.
 */
export async function runDeploymentLocally(
  kube: KubeApi,
  deployment: KubeObject,
  options: { listen: Record<string, string>; volumes: Record<string, string> },
): Promise<RunningService> {
  const [container] = (deployment as unknown as DeploymentShape).spec.template.spec.containers;
  if (!container) throw new Error(`Deployment ${deployment.metadata.name} has no container`);
  const env: Record<string, string> = {};
  for (const variable of container.env) {
    if (variable.valueFrom) {
      const secret = await kube.get({ apiVersion: 'v1', kind: 'Secret', namespace: deployment.metadata.namespace ?? '', name: variable.valueFrom.secretKeyRef.name });
      const encoded = (secret?.data as Record<string, string> | undefined)?.[variable.valueFrom.secretKeyRef.key];
      if (encoded === undefined) throw new Error(`Secret ${variable.valueFrom.secretKeyRef.name} lacks ${variable.valueFrom.secretKeyRef.key}`);
      env[variable.name] = Buffer.from(encoded, 'base64').toString('utf8');
    } else {
      env[variable.name] = variable.value ?? '';
    }
  }
  for (const [name, value] of Object.entries(env)) {
    const mount = Object.keys(options.volumes).find((path) => value === path || value.startsWith(`${path}/`));
    if (mount !== undefined) env[name] = `${options.volumes[mount]}${value.slice(mount.length)}`;
  }
  const [, entry] = container.command; // ['node', '<service>/dist/main.js']
  if (!entry) throw new Error(`Deployment ${deployment.metadata.name} has no entry point`);
  const running = await startService(entry, { ...env, ...options.listen });
  await kube.patchStatus({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: deployment.metadata.namespace ?? '', name: deployment.metadata.name }, { replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1 });
  return running;
}

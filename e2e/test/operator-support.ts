import { request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  KubeApiError,
  type KubeApi,
  type KubeObject,
  type ObjectList,
  type ObjectRef,
  type WatchHandlers,
} from '@gw/operator';
import type { TestCertificates } from '@gw/operator/kube-test-server';
import { probe, runContainer, type RunningContainer } from './containers.js';

// What the e2e operator suite needs beyond the harness: an https front for a provider simulator (ProviderKey base
// URLs are https only), a network partition between one operator replica and the API server, and a stand-in
// kubelet that runs a Deployment's container from its image.

/** An https origin (certificate for 127.0.0.1 from the test CA) relaying every request to an http target. */
export async function startTlsFront(
  target: string,
  certificates: TestCertificates,
): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = createHttpsServer(
    { cert: certificates.serverCert, key: certificates.serverKey },
    (request, response) => {
      const relayed = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      relayed.on('error', () => response.destroy());
      request.pipe(relayed);
    },
  );
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

  async watch(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    resourceVersion: string,
    handlers: WatchHandlers,
  ): Promise<() => void> {
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
interface SecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[] };
}
interface HttpProbe {
  httpGet: { path: string; port: string | number };
}
interface ContainerShape {
  image: string;
  command?: string[];
  args?: string[];
  env: EnvVar[];
  ports: { name: string; containerPort: number }[];
  livenessProbe: HttpProbe;
  readinessProbe: HttpProbe;
  securityContext?: SecurityContext;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface DeploymentShape {
  spec: {
    template: {
      spec: {
        securityContext?: SecurityContext;
        containers: ContainerShape[];
        volumes?: { name: string; emptyDir?: unknown }[];
      };
    };
  };
}

export interface DeploymentContainer {
  url: string;
  container: RunningContainer;
  stop(): Promise<number>;
}

async function resolveEnv(kube: KubeApi, namespace: string, variables: EnvVar[]): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const variable of variables) {
    if (!variable.valueFrom) {
      env[variable.name] = variable.value ?? '';
      continue;
    }
    const { name, key } = variable.valueFrom.secretKeyRef;
    const secret = await kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name });
    const encoded = (secret?.data as Record<string, string> | undefined)?.[key];
    if (encoded === undefined) throw new Error(`Secret ${name} lacks ${key}`);
    env[variable.name] = Buffer.from(encoded, 'base64').toString('utf8');
  }
  return env;
}

/**
 * The kubelet's part for one Deployment: runs its container from the image it names, with its command and args,
 * its environment (values and Secret references resolved as the pod sees them), its emptyDir volumes, its user,
 * read-only root filesystem and dropped capabilities; waits for its readiness probe, checks its liveness probe, then
 * reports the Deployment ready. The container shares the host network, so `listen` moves the listening port to a
 * free one (a port forward, in effect) and the probes go there; `readOnlyMounts` shows host files a cluster would
 * mount from Secrets.
 */
export async function runDeploymentContainer(
  kube: KubeApi,
  deployment: KubeObject,
  options: { listen: { variable: string; port: number }; readOnlyMounts?: string[] },
): Promise<DeploymentContainer> {
  const pod = (deployment as unknown as DeploymentShape).spec.template.spec;
  const [spec] = pod.containers;
  if (!spec) throw new Error(`Deployment ${deployment.metadata.name} has no container`);
  const namespace = deployment.metadata.namespace ?? '';
  const env = await resolveEnv(kube, namespace, spec.env);
  const declaredPort = spec.ports.find(
    (port) => port.name === spec.readinessProbe.httpGet.port || port.containerPort === spec.readinessProbe.httpGet.port,
  );
  if (env[options.listen.variable] !== String(declaredPort?.containerPort))
    throw new Error(`${options.listen.variable} is not the probed container port ${declaredPort?.containerPort}`);
  env[options.listen.variable] = String(options.listen.port);
  const security = { ...pod.securityContext, ...spec.securityContext };
  const emptyDirs = (spec.volumeMounts ?? [])
    .filter((mount) => pod.volumes?.find((volume) => volume.name === mount.name)?.emptyDir !== undefined)
    .map((mount) => mount.mountPath);
  const container = runContainer({
    image: spec.image,
    ...(spec.command ? { command: spec.command } : {}),
    args: spec.args ?? [],
    env,
    emptyDirs,
    readOnlyMounts: options.readOnlyMounts ?? [],
    ...(security.runAsUser === undefined
      ? {}
      : { user: `${security.runAsUser}:${security.runAsGroup ?? security.runAsUser}` }),
    readOnlyRootFilesystem: security.readOnlyRootFilesystem === true,
    dropAllCapabilities: security.capabilities?.drop?.includes('ALL') === true,
    noNewPrivileges: security.allowPrivilegeEscalation === false,
  });
  const url = `http://127.0.0.1:${options.listen.port}`;
  const deadline = Date.now() + 60_000;
  while ((await probe(`${url}${spec.readinessProbe.httpGet.path}`)) !== 200) {
    if (Date.now() > deadline)
      throw new Error(
        `${deployment.metadata.name} never passed its readiness probe ${spec.readinessProbe.httpGet.path}:\n${container.logs()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const live = await probe(`${url}${spec.livenessProbe.httpGet.path}`);
  if (live !== 200)
    throw new Error(
      `${deployment.metadata.name} fails its liveness probe ${spec.livenessProbe.httpGet.path} with ${live}`,
    );
  await kube.patchStatus(
    { apiVersion: 'apps/v1', kind: 'Deployment', namespace, name: deployment.metadata.name },
    { replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1 },
  );
  return {
    url,
    container,
    stop: async () => {
      const { exitCode } = await container.stop('TERM');
      container.remove();
      return exitCode;
    },
  };
}

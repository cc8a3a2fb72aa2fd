import {
  AppsV1Api,
  CoreV1Api,
  CoordinationV1Api,
  KubernetesObjectApi,
  PatchStrategy,
  Watch,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureKubeTools } from './binaries.js';
import { installGwCrds } from './gw-crds.js';
import { startKubeTestServer, type KubeTestServer } from './kube-test-server.js';

const run = promisify(execFile);
const namespace = 'harness';

describe('kube test server', () => {
  let server: KubeTestServer;
  beforeAll(async () => {
    server = await startKubeTestServer();
    await installGwCrds(server.kubeConfig);
  }, 15 * 60_000);
  afterAll(async () => server?.stop());

  it('stores a Secret through the core v1 API, folding stringData into base64 data', async () => {
    const core = server.kubeConfig.makeApiClient(CoreV1Api);
    const created = await core.createNamespacedSecret({
      namespace,
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, stringData: { url: 'postgres://db' } },
    });
    expect(created.apiVersion).toBe('v1');
    expect(created.data).toEqual({ url: Buffer.from('postgres://db').toString('base64') });
    const read = await core.readNamespacedSecret({ name: 'db', namespace });
    expect(read.metadata?.uid).toBe(created.metadata?.uid);
  });

  it('answers 404 with the real resource name and 409 on a stale resourceVersion', async () => {
    const core = server.kubeConfig.makeApiClient(CoreV1Api);
    await expect(core.readNamespacedConfigMap({ name: 'absent', namespace })).rejects.toMatchObject({
      code: 404,
      body: expect.stringContaining('configmaps \\"absent\\" not found'),
    });
    const created = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'settings' }, data: { a: '1' } },
    });
    await core.replaceNamespacedConfigMap({ name: 'settings', namespace, body: { ...created, data: { a: '2' } } });
    await expect(
      core.replaceNamespacedConfigMap({ name: 'settings', namespace, body: { ...created, data: { a: '3' } } }),
    ).rejects.toMatchObject({ code: 409 });
  });

  it('serves Deployments with status and scale subresources and server-side apply', async () => {
    const objects = KubernetesObjectApi.makeApiClient(server.kubeConfig);
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    };
    const applied: KubernetesObject = await objects.patch<KubernetesObject>(
      deployment,
      undefined,
      undefined,
      'gw-test',
      true,
      PatchStrategy.ServerSideApply,
    );
    expect(applied.apiVersion).toBe('apps/v1');
    expect(applied.metadata?.managedFields?.[0]?.apiVersion).toBe('apps/v1');
    const apps = server.kubeConfig.makeApiClient(AppsV1Api);
    const scale = await apps.readNamespacedDeploymentScale({ name: 'web', namespace });
    expect(scale.spec?.replicas).toBe(2);
    await apps.replaceNamespacedDeploymentStatus({
      name: 'web',
      namespace,
      body: {
        ...(await apps.readNamespacedDeployment({ name: 'web', namespace })),
        status: { replicas: 2, readyReplicas: 2 },
      },
    });
    const read = await apps.readNamespacedDeployment({ name: 'web', namespace });
    expect(read.status?.readyReplicas).toBe(2);
    // A second manager changing an owned field conflicts, as on a real cluster.
    const conflicting = { ...deployment, spec: { ...deployment.spec, replicas: 5 } };
    await expect(
      objects.patch(conflicting, undefined, undefined, 'someone-else', false, PatchStrategy.ServerSideApply),
    ).rejects.toMatchObject({ code: 409 });
  });

  it('streams watch events for a built-in kind under its real apiVersion', async () => {
    // Settles on the watch's first event about the Lease `leader`, or with none if the watch ends first.
    const { promise: leaderEvent, resolve } = Promise.withResolvers<
      { phase: string; apiVersion: string; name: string } | undefined
    >();
    const watch = new Watch(server.kubeConfig);
    const controller = await watch.watch(
      `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`,
      {},
      (phase, object: { apiVersion: string; metadata: { name: string } }) => {
        if (object.metadata.name === 'leader')
          resolve({ phase, apiVersion: object.apiVersion, name: object.metadata.name });
      },
      () => resolve(undefined),
    );
    const leases = server.kubeConfig.makeApiClient(CoordinationV1Api);
    await leases.createNamespacedLease({
      namespace,
      body: { metadata: { name: 'leader' }, spec: { holderIdentity: 'a' } },
    });
    expect(await leaderEvent).toEqual({ phase: 'ADDED', apiVersion: 'coordination.k8s.io/v1', name: 'leader' });
    controller.abort();
  });

  it('lists every gw kind and the built-ins with kubectl', async () => {
    const { kubectl } = await ensureKubeTools();
    const { stdout } = await run(kubectl, [
      '--kubeconfig',
      server.kubeconfigPath,
      'api-resources',
      '--namespaced=true',
      '-o',
      'name',
    ]);
    const names = stdout.trim().split('\n').sort();
    expect(names).toEqual(
      expect.arrayContaining([
        'gateways.gw.dev',
        'providerkeys.gw.dev',
        'secrets',
        'deployments.apps',
        'leases.coordination.k8s.io',
        'horizontalpodautoscalers.autoscaling',
        'poddisruptionbudgets.policy',
      ]),
    );
    expect(names.some((name) => name.includes('builtin.gw-test'))).toBe(false);
  });

  it('lets a plain kubectl apply validate through /openapi/v2 and /openapi/v3, refusing an unknown field by name', async () => {
    const { kubectl } = await ensureKubeTools();
    const apply = (manifest: string) =>
      new Promise<{ code: number; output: string }>((resolve) => {
        const child = execFile(
          kubectl,
          ['--kubeconfig', server.kubeconfigPath, 'apply', '-n', namespace, '-f', '-'],
          (error, stdout, stderr) =>
            resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
        );
        child.stdin?.end(manifest);
      });
    const swagger = JSON.parse(
      (await run(kubectl, ['--kubeconfig', server.kubeconfigPath, 'get', '--raw', '/openapi/v2'])).stdout,
    ) as {
      swagger: string;
      definitions: Record<string, { 'x-kubernetes-group-version-kind'?: { group: string; kind: string }[] }>;
    };
    expect(swagger.swagger).toBe('2.0');
    const kinds = Object.values(swagger.definitions)
      .flatMap((definition) => definition['x-kubernetes-group-version-kind'] ?? [])
      .map(({ group, kind }) => `${kind}.${group}`);
    expect(kinds).toEqual(expect.arrayContaining(['Gateway.gw.dev', 'Secret.', 'Deployment.apps']));
    expect(kinds.some((kind) => kind.includes('builtin.gw-test'))).toBe(false);

    const secret = await apply(
      'apiVersion: v1\nkind: Secret\nmetadata: { name: validated }\nstringData: { url: postgres://db }\n',
    );
    expect(secret).toEqual({ code: 0, output: 'secret/validated created\n' });
    const gateway = (extra: string) =>
      `apiVersion: gw.dev/v1alpha1\nkind: Gateway\nmetadata: { name: validated }\nspec:\n  image: { repository: localhost/gw }\n  version: "1.10.353"\n  publicUrl: https://gw.example.com\n  database: { urlSecretRef: { name: validated, key: url } }\n${extra}`;
    expect(await apply(gateway(''))).toEqual({ code: 0, output: 'gateway.gw.dev/validated created\n' });
    // An unknown field is refused by kubectl's default (strict) validation, naming the field.
    const refused = await apply(gateway('  replicas: 3\n'));
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/unknown field "spec\.replicas"/);
  });
});

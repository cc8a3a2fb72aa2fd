import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createIsolatedPgDb, testDbUrl } from '@gw/testkit';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpKubeApi, serviceUrl, type KubeObject } from '@gw/operator';
import { installGwCrds, startKubeTestServer, watchUntil, type KubeTestServer } from '@gw/operator/kube-test-server';
import { freePort, images, probe, requireImages, runContainer, type RunningContainer } from './containers.js';
import { runDeploymentContainer, type DeploymentContainer } from './operator-support.js';

// The operator image run as a developer runs it outside a cluster: the test API server through a kubeconfig, and
// the gateway Service reached through GW_OPERATOR_GATEWAY_URLS (a port-forward, in effect). It turns a Gateway into
// Deployments, the test runs the gateway's container from them, and the operator in its container mints its admin
// key from the gateway and reports the Gateway available.

const namespace = 'gw-image';

/** The kubeconfig with its certificates inline, readable by the image's non-root user through a read-only mount. */
async function inlineKubeconfig(server: KubeTestServer, directory: string): Promise<string> {
  const cluster = server.kubeConfig.getCurrentCluster();
  const user = server.kubeConfig.getCurrentUser();
  const data = async (inline: string | undefined, file: string | undefined) =>
    inline ?? (file ? (await readFile(file)).toString('base64') : '');
  const yaml = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: test',
    '  cluster:',
    `    server: ${cluster?.server ?? ''}`,
    `    certificate-authority-data: ${await data(cluster?.caData, cluster?.caFile)}`,
    'users:',
    '- name: test',
    '  user:',
    `    client-certificate-data: ${await data(user?.certData, user?.certFile)}`,
    `    client-key-data: ${await data(user?.keyData, user?.keyFile)}`,
    'contexts:',
    '- name: test',
    '  context: { cluster: test, user: test }',
    'current-context: test',
  ].join('\n');
  const path = join(directory, 'kubeconfig');
  await writeFile(path, `${yaml}\n`, { mode: 0o644 });
  await chmod(directory, 0o755);
  return path;
}

describe('the operator image', () => {
  let server: KubeTestServer;
  let kube: HttpKubeApi;
  let database: Awaited<ReturnType<typeof createIsolatedPgDb>>;
  let workDir: string;
  let operator: RunningContainer | undefined;
  let gateway: DeploymentContainer | undefined;

  beforeAll(async () => {
    requireImages(images.component, images.operator);
    workDir = await mkdtemp(join(tmpdir(), 'gw-operator-image-'));
    [server, database] = await Promise.all([startKubeTestServer(), createIsolatedPgDb(testDbUrl(process.env))]);
    await installGwCrds(server.kubeConfig);
    kube = new HttpKubeApi(server.kubeConfig);
  }, 180_000);

  afterAll(async () => {
    operator?.remove();
    await gateway?.stop();
    await Promise.all([server?.stop(), database?.dispose()]);
    await rm(workDir, { recursive: true, force: true });
  }, 60_000);

  it('runs a Gateway from outside the cluster: Deployments from the image, its own admin key, Ready, and exits 0 on SIGTERM', async ({
    signal,
  }) => {
    const gatewayPort = await freePort();
    const metricsPort = await freePort();
    const inCluster = serviceUrl(
      { apiVersion: 'gw.dev/v1alpha1', kind: 'Gateway', metadata: { name: 'gw', namespace } },
      'gateway',
    );
    const kubeconfig = await inlineKubeconfig(server, await mkdtemp(join(workDir, 'kube-')));
    operator = runContainer({
      image: images.operator,
      env: {
        KUBECONFIG: kubeconfig,
        GW_OPERATOR_WATCH_NAMESPACES: namespace,
        GW_OPERATOR_LEADER_ELECTION: 'false',
        GW_OPERATOR_RESYNC_SECONDS: '30',
        GW_OPERATOR_METRICS_PORT: String(metricsPort),
        GW_OPERATOR_GATEWAY_URLS: `${inCluster}=http://127.0.0.1:${gatewayPort}`,
        GW_LOG_LEVEL: 'warn',
      },
      user: '65532:65532',
      emptyDirs: ['/tmp'],
      readOnlyMounts: [kubeconfig],
    });
    const running = operator;
    try {
      // A container starting: the host port the runtime forwards says nothing when it starts forwarding, so the
      // operator's own health probe is asked (bounded) until it answers, as the kubelet would.
      await expect
        .poll(() => probe(`http://127.0.0.1:${metricsPort}/healthz`), { timeout: 30_000, interval: 100 })
        .toBe(200);
    } catch (error) {
      throw new Error(`the operator never answered /healthz:\n${running.logs()}`, { cause: error });
    }

    const url = `${database.url}?options=${encodeURIComponent(`-c search_path=${database.schema}`)}`;
    await kube.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'gw-database', namespace },
      type: 'Opaque',
      data: { url: Buffer.from(url).toString('base64') },
    });
    await kube.create({
      apiVersion: 'gw.dev/v1alpha1',
      kind: 'Gateway',
      metadata: { name: 'gw', namespace },
      spec: {
        image: { repository: images.repository },
        version: images.version,
        publicUrl: 'https://gw.example.com',
        database: { urlSecretRef: { name: 'gw-database', key: 'url' } },
        components: { optimizer: { enabled: false }, evidence: { enabled: false } },
      },
    });
    const deployment = async () =>
      kube.get({ apiVersion: 'apps/v1', kind: 'Deployment', namespace, name: 'gw-gateway' });
    await watchUntil(
      kube,
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace },
      'the gw-gateway Deployment',
      (objects) => objects.has('gw-gateway'),
      signal,
    );
    expect(
      ((await deployment())?.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec
        .containers[0]?.image,
    ).toBe(images.component);
    gateway = await runDeploymentContainer(kube, (await deployment())!, {
      listen: { variable: 'GW_PORT', port: gatewayPort },
    });

    const readyOf = (object: KubeObject | undefined) => {
      const status = object?.status as { conditions?: { type: string; status: string; reason: string }[] } | undefined;
      const condition = status?.conditions?.find((candidate) => candidate.type === 'Ready');
      return `${condition?.status}:${condition?.reason}`;
    };
    await watchUntil(
      kube,
      { apiVersion: 'gw.dev/v1alpha1', kind: 'Gateway', namespace },
      'the Gateway Ready and Available',
      (objects) => readyOf(objects.get('gw')) === 'True:Available',
      signal,
    );
    const keySecret = await kube.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: 'gw-operator-key' });
    expect(keySecret?.metadata.annotations?.['gw.dev/admin-key-id']).toMatch(/.+/);

    const { exitCode, seconds } = await running.stop('TERM');
    expect(exitCode).toBe(0);
    expect(seconds).toBeLessThan(10);
  }, 150_000);
});

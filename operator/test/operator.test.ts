import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpKubeApi } from '../src/kube/http-kube-api.js';
import { FakeManagementClient } from './support/fake-management-client.js';
import { Operator } from '../src/operator.js';
import { silentLogger } from './support/reconciler-fixture.js';
import { OperatorMetrics } from '../src/runtime/metrics.js';
import { systemTimers } from '../src/runtime/timers.js';
import { installGwCrds } from './kube/gw-crds.js';
import { kubeRequest } from './kube/kube-request.js';
import { startKubeTestServer, type KubeTestServer } from './kube/kube-test-server.js';

// Two operator replicas against the real API server: one leads, the Gateway becomes a stack, the operator mints
// its own key once the gateway serves, a ProviderKey is applied once; stopping the leader hands over.
// The test server has no controllers, so the test plays the kubelet by marking Deployments ready.

const namespace = 'gw';

describe('operator replicas against the test API server', () => {
  let server: KubeTestServer;
  const gateway = new FakeManagementClient();
  const replicas: { operator: Operator; metrics: OperatorMetrics }[] = [];

  beforeAll(async () => {
    server = await startKubeTestServer();
    await installGwCrds(server.kubeConfig);
    for (const identity of ['operator-a', 'operator-b']) {
      const metrics = new OperatorMetrics();
      const operator = new Operator({
        api: new HttpKubeApi(server.kubeConfig),
        timers: systemTimers,
        logger: silentLogger,
        metrics,
        namespaces: [],
        resyncMs: 60_000,
        leaderElection: { namespace: 'gw-system', name: 'gw-operator-leader', identity },
        clientFactory: () => gateway,
      });
      replicas.push({ operator, metrics });
      await operator.start();
    }
  }, 15 * 60_000);
  afterAll(async () => {
    for (const { operator } of replicas) await operator.stop();
    await server?.stop();
  });

  const leaders = async () =>
    (await Promise.all(replicas.map(async ({ metrics }) => (await metrics.leader.get()).values[0]?.value ?? 0))).reduce(
      (sum, value) => sum + value,
      0,
    );
  const post = (path: string, body: unknown) => kubeRequest(server.kubeConfig, 'POST', path, body);

  it('elects exactly one leader', async () => {
    await expect.poll(leaders, { timeout: 10_000 }).toBe(1);
  });

  it('runs a Gateway, mints its key when the gateway serves, and applies a ProviderKey once', async () => {
    await post(`/api/v1/namespaces/${namespace}/secrets`, {
      metadata: { name: 'db' },
      stringData: { url: 'postgres://db/gw' },
    });
    await post(`/api/v1/namespaces/${namespace}/secrets`, {
      metadata: { name: 'openai-key' },
      stringData: { apiKey: 'sk-live' },
    });
    await post(`/apis/gw.dev/v1alpha1/namespaces/${namespace}/gateways`, {
      apiVersion: 'gw.dev/v1alpha1',
      kind: 'Gateway',
      metadata: { name: 'gw' },
      spec: {
        image: { repository: 'ghcr.io/example/gw' },
        version: '1.10.353',
        publicUrl: 'https://gw.example.com',
        database: { urlSecretRef: { name: 'db', key: 'url' } },
      },
    });
    await post(`/apis/gw.dev/v1alpha1/namespaces/${namespace}/providerkeys`, {
      apiVersion: 'gw.dev/v1alpha1',
      kind: 'ProviderKey',
      metadata: { name: 'openai' },
      spec: {
        gatewayRef: { name: 'gw' },
        provider: 'openai',
        type: 'openai',
        secretRef: { name: 'openai-key', key: 'apiKey' },
      },
    });
    await expect
      .poll(
        async () =>
          (await kubeRequest(server.kubeConfig, 'GET', `/apis/apps/v1/namespaces/${namespace}/deployments`)).body,
        { timeout: 10_000 },
      )
      .toMatchObject({ items: [{}, {}, {}] });
    expect(gateway.state.providers.size).toBe(0); // not before the gateway serves
    for (const component of ['gateway', 'optimizer', 'evidence']) {
      const response = await kubeRequest(
        server.kubeConfig,
        'PATCH',
        `/apis/apps/v1/namespaces/${namespace}/deployments/gw-${component}/status`,
        { status: { replicas: 1, readyReplicas: 1 } },
        'application/merge-patch+json',
      );
      expect(response.status, response.text).toBe(200);
    }
    await expect.poll(() => gateway.state.adminKeys.length, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => gateway.state.providers.get('openai')?.apiKey, { timeout: 20_000 }).toBe('sk-live');
    expect(gateway.calls.filter((call) => call === 'PUT provider openai')).toHaveLength(1);
    const { body } = await kubeRequest(
      server.kubeConfig,
      'GET',
      `/apis/gw.dev/v1alpha1/namespaces/${namespace}/gateways/gw`,
    );
    expect((body as { status: { conditions: { type: string; status: string }[] } }).status.conditions).toContainEqual(
      expect.objectContaining({ type: 'Ready', status: 'True' }),
    );
  });

  it('hands over to the standby when the leader stops', async () => {
    const leader = await Promise.all(
      replicas.map(async ({ metrics }) => (await metrics.leader.get()).values[0]?.value ?? 0),
    );
    const index = leader.indexOf(1);
    await replicas[index].operator.stop();
    await expect
      .poll(async () => (await replicas[1 - index].metrics.leader.get()).values[0]?.value, { timeout: 10_000 })
      .toBe(1);
  });
});

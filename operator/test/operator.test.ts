import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpKubeApi } from '../src/kube/http-kube-api.js';
import { FakeManagementClient } from './support/fake-management-client.js';
import { Operator } from '../src/operator.js';
import { recordingLogger } from './support/recording-logger.js';
import { OperatorMetrics } from '../src/runtime/metrics.js';
import { systemTimers } from '../src/runtime/timers.js';
import { installGwCrds } from './kube/gw-crds.js';
import { kubeRequest } from './kube/kube-request.js';
import { watchUntil } from './kube/watch-until.js';
import { startKubeTestServer, type KubeTestServer } from './kube/kube-test-server.js';

// Two operator replicas against the real API server: one leads, the Gateway becomes a stack, the operator mints
// its own key once the gateway serves, a ProviderKey is applied once; stopping the leader hands over.
// The test server has no controllers, so the test plays the kubelet by marking Deployments ready.

const namespace = 'gw';

describe('operator replicas against the test API server', () => {
  let server: KubeTestServer;
  const gateway = new FakeManagementClient();
  const replicas: { operator: Operator; metrics: OperatorMetrics; log: ReturnType<typeof recordingLogger> }[] = [];

  beforeAll(async () => {
    server = await startKubeTestServer();
    await installGwCrds(server.kubeConfig);
    for (const identity of ['operator-a', 'operator-b']) {
      const metrics = new OperatorMetrics();
      const log = recordingLogger(identity);
      const operator = new Operator({
        api: new HttpKubeApi(server.kubeConfig),
        timers: systemTimers,
        logger: log.logger,
        metrics,
        namespaces: [],
        resyncMs: 60_000,
        leaderElection: { namespace: 'gw-system', name: 'gw-operator-leader', identity },
        clientFactory: () => gateway,
      });
      replicas.push({ operator, metrics, log });
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

  it('elects exactly one leader', async ({ signal }) => {
    await Promise.race(replicas.map(({ log }) => log.logged('became leader', 1, signal)));
    expect(await leaders()).toBe(1);
  });

  it('runs a Gateway, mints its key when the gateway serves, and applies a ProviderKey once', async ({ signal }) => {
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
    await watchUntil(
      new HttpKubeApi(server.kubeConfig),
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace },
      'three Deployments',
      (deployments) => deployments.size === 3,
      signal,
    );
    expect(
      (await kubeRequest(server.kubeConfig, 'GET', `/apis/apps/v1/namespaces/${namespace}/deployments`)).body,
    ).toMatchObject({ items: [{}, {}, {}] });
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
    await gateway.until('one admin key minted', (state) => state.adminKeys.length === 1, signal);
    await gateway.until(
      'provider openai with key sk-live',
      (state) => state.providers.get('openai')?.apiKey === 'sk-live',
      signal,
    );
    expect(gateway.state.adminKeys).toHaveLength(1);
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

  it('hands over to the standby when the leader stops', async ({ signal }) => {
    const leader = await Promise.all(
      replicas.map(async ({ metrics }) => (await metrics.leader.get()).values[0]?.value ?? 0),
    );
    const index = leader.indexOf(1);
    await replicas[index].operator.stop();
    const standby = replicas[1 - index];
    await standby.log.logged('became leader', 1, signal);
    expect((await standby.metrics.leader.get()).values[0]?.value).toBe(1);
  });
});

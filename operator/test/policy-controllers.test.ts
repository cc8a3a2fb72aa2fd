import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpKubeApi } from '../src/kube/http-kube-api.js';
import { FakeManagementClient } from './support/fake-management-client.js';
import { silentLogger } from './support/reconciler-fixture.js';
import { policyControllers } from '../src/reconcilers/registry.js';
import type { Controller } from '../src/runtime/controller.js';
import { EventRecorder } from '../src/runtime/events.js';
import { OperatorMetrics } from '../src/runtime/metrics.js';
import { InformerRegistry } from '../src/runtime/shared-informers.js';
import { StatusWriter } from '../src/runtime/status-writer.js';
import { systemTimers } from '../src/runtime/timers.js';
import { installGwCrds } from './kube/gw-crds.js';
import { kubeRequest } from './kube/kube-request.js';
import { startKubeTestServer, type KubeTestServer } from './kube/kube-test-server.js';

// The policy controllers end to end against the real API server (watches, finalizers, status subresource, CRD
// validation of what the operator writes), with the gateway's admin plane faked until it is built.

const namespace = 'team';
const base = `/apis/gw.dev/v1alpha1/namespaces/${namespace}`;

describe('policy controllers against the test API server', () => {
  let server: KubeTestServer;
  let controllers: Controller[];
  const gateway = new FakeManagementClient();
  const metrics = new OperatorMetrics();

  beforeAll(async () => {
    server = await startKubeTestServer();
    await installGwCrds(server.kubeConfig);
    const api = new HttpKubeApi(server.kubeConfig);
    const deps = {
      api,
      timers: systemTimers,
      logger: silentLogger,
      events: new EventRecorder(api, systemTimers),
      status: new StatusWriter(api, systemTimers),
      clients: { forGateway: async () => gateway },
    };
    controllers = policyControllers(deps, {
      informers: new InformerRegistry({ api, timers: systemTimers, logger: silentLogger }),
      metrics,
      resyncMs: 60_000,
    });
    await Promise.all(controllers.map((controller) => controller.start()));
    await kubeRequest(server.kubeConfig, 'POST', `${base}/gateways`, {
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
    await kubeRequest(server.kubeConfig, 'POST', `/api/v1/namespaces/${namespace}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'openai-key' },
      stringData: { apiKey: 'sk-first' },
    });
  }, 15 * 60_000);
  afterAll(async () => {
    await Promise.all((controllers ?? []).map((controller) => controller.stop()));
    await server?.stop();
  });

  const readyOf = async (plural: string, name: string) => {
    const { body } = await kubeRequest(server.kubeConfig, 'GET', `${base}/${plural}/${name}`);
    return (
      body as { status?: { conditions?: { type: string; status: string; reason: string }[] } }
    ).status?.conditions?.find((condition) => condition.type === 'Ready');
  };

  it('applies a ProviderKey, re-applies on Secret rotation and deletes on removal', async () => {
    const created = await kubeRequest(server.kubeConfig, 'POST', `${base}/providerkeys`, {
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
    expect(created.status).toBe(201);
    await expect.poll(() => gateway.state.providers.get('openai')?.apiKey, { timeout: 10_000 }).toBe('sk-first');
    await expect
      .poll(() => readyOf('providerkeys', 'openai'), { timeout: 10_000 })
      .toMatchObject({ status: 'True', reason: 'Applied' });

    await kubeRequest(
      server.kubeConfig,
      'PATCH',
      `/api/v1/namespaces/${namespace}/secrets/openai-key`,
      { stringData: { apiKey: 'sk-rotated' } },
      'application/merge-patch+json',
    );
    await expect.poll(() => gateway.state.providers.get('openai')?.apiKey, { timeout: 10_000 }).toBe('sk-rotated');

    await kubeRequest(server.kubeConfig, 'DELETE', `${base}/providerkeys/openai`);
    await expect.poll(() => gateway.state.providers.has('openai'), { timeout: 10_000 }).toBe(false);
    await expect
      .poll(async () => (await kubeRequest(server.kubeConfig, 'GET', `${base}/providerkeys/openai`)).status, {
        timeout: 10_000,
      })
      .toBe(404);
  });

  it('mints a ServiceKey into its Secret and revokes it when the resource is deleted', async () => {
    await kubeRequest(server.kubeConfig, 'POST', `${base}/servicekeys`, {
      apiVersion: 'gw.dev/v1alpha1',
      kind: 'ServiceKey',
      metadata: { name: 'ci' },
      spec: { gatewayRef: { name: 'gw' }, name: 'ci', team: 'platform', secretName: 'ci-key' },
    });
    await expect
      .poll(
        async () =>
          (await kubeRequest(server.kubeConfig, 'GET', `/api/v1/namespaces/${namespace}/secrets/ci-key`)).status,
        { timeout: 10_000 },
      )
      .toBe(200);
    const { body } = await kubeRequest(server.kubeConfig, 'GET', `/api/v1/namespaces/${namespace}/secrets/ci-key`);
    expect(Buffer.from((body as { data: { apiKey: string } }).data.apiKey, 'base64').toString()).toMatch(/^ark_svc_/);
    await expect.poll(() => readyOf('servicekeys', 'ci'), { timeout: 10_000 }).toMatchObject({ status: 'True' });
    const [key] = [...gateway.state.keys.values()];
    await kubeRequest(server.kubeConfig, 'DELETE', `${base}/servicekeys/ci`);
    await expect.poll(() => gateway.state.keys.get(key.id)?.status, { timeout: 10_000 }).toBe('revoked');
  });

  it('counts reconciles in the metrics', async () => {
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/gw_operator_reconcile_total\{kind="ProviderKey",result="success"\} [1-9]/);
  });
});

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
import { readyCondition, watchUntil, type ObjectsByName } from './kube/watch-until.js';
import { startKubeTestServer, type KubeTestServer } from './kube/kube-test-server.js';

// The policy controllers end to end against the real API server (watches, finalizers, status subresource, CRD
// validation of what the operator writes), with the gateway's admin plane faked until it is built.

const namespace = 'team';
const base = `/apis/gw.dev/v1alpha1/namespaces/${namespace}`;

describe('policy controllers against the test API server', () => {
  let server: KubeTestServer;
  let controllers: Controller[];
  let api: HttpKubeApi;
  const gateway = new FakeManagementClient();
  const metrics = new OperatorMetrics();

  beforeAll(async () => {
    server = await startKubeTestServer();
    await installGwCrds(server.kubeConfig);
    api = new HttpKubeApi(server.kubeConfig);
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

  /** Resolves once the watch on the namespace's objects of `kind` sees `condition` hold. */
  const watchFor = (
    kind: string,
    what: string,
    condition: (objects: ObjectsByName) => boolean,
    signal: AbortSignal,
    apiVersion = 'gw.dev/v1alpha1',
  ) => watchUntil(api, { apiVersion, kind, namespace }, what, condition, signal);

  it('applies a ProviderKey, re-applies on Secret rotation and deletes on removal', async ({ signal }) => {
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
    await gateway.until(
      'provider openai with key sk-first',
      (state) => state.providers.get('openai')?.apiKey === 'sk-first',
      signal,
    );
    await watchFor(
      'ProviderKey',
      'ProviderKey openai Ready True Applied',
      (objects) => {
        const ready = readyCondition(objects.get('openai'));
        return ready?.status === 'True' && ready.reason === 'Applied';
      },
      signal,
    );

    await kubeRequest(
      server.kubeConfig,
      'PATCH',
      `/api/v1/namespaces/${namespace}/secrets/openai-key`,
      { stringData: { apiKey: 'sk-rotated' } },
      'application/merge-patch+json',
    );
    await gateway.until(
      'provider openai with key sk-rotated',
      (state) => state.providers.get('openai')?.apiKey === 'sk-rotated',
      signal,
    );

    await kubeRequest(server.kubeConfig, 'DELETE', `${base}/providerkeys/openai`);
    await gateway.until('provider openai removed', (state) => !state.providers.has('openai'), signal);
    await watchFor('ProviderKey', 'ProviderKey openai gone', (objects) => !objects.has('openai'), signal);
    expect((await kubeRequest(server.kubeConfig, 'GET', `${base}/providerkeys/openai`)).status).toBe(404);
  });

  it('mints a ServiceKey into its Secret and revokes it when the resource is deleted', async ({ signal }) => {
    await kubeRequest(server.kubeConfig, 'POST', `${base}/servicekeys`, {
      apiVersion: 'gw.dev/v1alpha1',
      kind: 'ServiceKey',
      metadata: { name: 'ci' },
      spec: { gatewayRef: { name: 'gw' }, name: 'ci', team: 'platform', secretName: 'ci-key' },
    });
    await watchFor('Secret', 'Secret ci-key', (objects) => objects.has('ci-key'), signal, 'v1');
    const { body } = await kubeRequest(server.kubeConfig, 'GET', `/api/v1/namespaces/${namespace}/secrets/ci-key`);
    expect(Buffer.from((body as { data: { apiKey: string } }).data.apiKey, 'base64').toString()).toMatch(/^ark_svc_/);
    await watchFor(
      'ServiceKey',
      'ServiceKey ci Ready True',
      (objects) => readyCondition(objects.get('ci'))?.status === 'True',
      signal,
    );
    const [key] = [...gateway.state.keys.values()];
    await kubeRequest(server.kubeConfig, 'DELETE', `${base}/servicekeys/ci`);
    await gateway.until(`key ${key.id} revoked`, (state) => state.keys.get(key.id)?.status === 'revoked', signal);
  });

  it('counts reconciles in the metrics', async () => {
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/gw_operator_reconcile_total\{kind="ProviderKey",result="success"\} [1-9]/);
  });
});

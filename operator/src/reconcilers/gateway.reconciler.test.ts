import { describe, expect, it } from 'vitest';
import { ManagementError } from '../management/management-client.js';
import { KubeGatewayClients } from './gateway-clients.js';
import { GatewayReconciler } from './gateway.reconciler.js';
import { reconcilerFixture } from '../../test/support/reconciler-fixture.js';

const spec = {
  image: { repository: 'ghcr.io/example/gw' },
  version: '1.10.353',
  publicUrl: 'https://gw.example.com',
  database: { urlSecretRef: { name: 'db', key: 'url' } },
};

async function setup(gatewaySpec: Record<string, unknown> = spec) {
  const fixture = reconcilerFixture();
  const bearers: string[] = [];
  let counter = 0;
  const material = {
    token: () => `token-${++counter}-0123456789abcdef`,
    hexKey: () => String(++counter).padStart(64, '0'),
    ed25519PrivateKeyPem: () => '-----BEGIN PRIVATE KEY-----',
  };
  const reconciler = new GatewayReconciler(
    fixture.deps,
    (baseUrl, bearer) => {
      bearers.push(`${baseUrl} ${bearer}`);
      return fixture.gatewayApi;
    },
    material,
  );
  await fixture.putSecret('db', { url: 'postgres://db/gw' });
  await fixture.create('Gateway', 'gw', gatewaySpec);
  const reconcile = async () => reconciler.reconcile((await fixture.get('Gateway', 'gw'))!);
  const markReady = async () => {
    for (const component of ['gateway', 'optimizer', 'evidence']) {
      await fixture.api.patchStatus(
        { apiVersion: 'apps/v1', kind: 'Deployment', namespace: fixture.namespace, name: `gw-${component}` },
        { readyReplicas: 1 },
      );
    }
  };
  const secret = (name: string) =>
    fixture.api.get({ apiVersion: 'v1', kind: 'Secret', namespace: fixture.namespace, name });
  return { ...fixture, reconcile, markReady, bearers, secret };
}

describe('GatewayReconciler', () => {
  it('creates the stack and reports RollingOut until the Deployments are ready', async () => {
    const { reconcile, api, condition } = await setup();
    expect(await reconcile()).toEqual({ requeueAfterMs: 15_000 });
    expect(
      api
        .objectsOf('Deployment')
        .map((object) => object.metadata.name)
        .sort(),
    ).toEqual(['gw-evidence', 'gw-gateway', 'gw-optimizer']);
    expect(api.objectsOf('Service')).toHaveLength(3);
    expect(api.objectsOf('PodDisruptionBudget')).toHaveLength(3);
    expect(await condition('Gateway', 'gw', 'Reconciling')).toMatchObject({ status: 'True', reason: 'RollingOut' });
  });

  it('creates generated Secrets once and never overwrites them', async () => {
    const { reconcile, secret } = await setup();
    await reconcile();
    const first = (await secret('gw-keystore-key'))?.data;
    await reconcile();
    expect((await secret('gw-keystore-key'))?.data).toEqual(first);
  });

  it('mints its scoped admin key with the admin token once the gateway serves, then reports Ready', async () => {
    const { reconcile, markReady, gatewayApi, bearers, secret, condition, get, api } = await setup();
    await reconcile();
    await markReady();
    expect(await reconcile()).toEqual({});
    const adminToken = Buffer.from(
      ((await secret('gw-admin-token'))?.data as { token: string }).token,
      'base64',
    ).toString();
    expect(bearers).toEqual([`http://gw-gateway.team.svc:8787 ${adminToken}`]);
    expect(gatewayApi.state.adminKeys[0]).toMatchObject({
      scopes: expect.arrayContaining(['providers:write', 'keys:write']),
      neverExpires: true,
    });
    expect(gatewayApi.state.adminKeys[0].scopes).not.toContain('admin-keys:write');
    expect(await secret('gw-operator-key')).not.toBeNull();
    expect(await condition('Gateway', 'gw')).toMatchObject({ status: 'True', reason: 'Available' });
    expect((await get('Gateway', 'gw'))?.status).toMatchObject({ adminKeySecretName: 'gw-operator-key' });
    expect(await new KubeGatewayClients(api, () => gatewayApi).forGateway((await get('Gateway', 'gw'))!)).toBe(
      gatewayApi,
    );
    await reconcile();
    expect(gatewayApi.state.adminKeys).toHaveLength(1);
  });

  it('refuses more than one gateway replica without Redis with Stalled=True, RedisRequired, and creates nothing', async () => {
    const { reconcile, api, condition, events } = await setup({ ...spec, components: { gateway: { replicas: 3 } } });
    await reconcile();
    expect(await condition('Gateway', 'gw', 'Stalled')).toMatchObject({ status: 'True', reason: 'RedisRequired' });
    expect(api.objectsOf('Deployment')).toHaveLength(0);
    expect(await events()).toContain('Warning RedisRequired');
  });

  it('stalls until the database Secret exists', async () => {
    const { reconcile, api, condition, namespace } = await setup();
    await api.delete({ apiVersion: 'v1', kind: 'Secret', namespace, name: 'db' });
    await reconcile();
    expect(await condition('Gateway', 'gw', 'Stalled')).toMatchObject({ status: 'True', reason: 'SecretNotFound' });
  });

  it('retries with backoff when minting fails transiently', async () => {
    const { reconcile, markReady, gatewayApi, condition } = await setup();
    await reconcile();
    await markReady();
    gatewayApi.failWith = new ManagementError(503, 'unavailable', 'starting');
    await expect(reconcile()).rejects.toThrow('starting');
    expect(await condition('Gateway', 'gw', 'Synced')).toMatchObject({ status: 'False', reason: 'GatewayUnavailable' });
  });
});

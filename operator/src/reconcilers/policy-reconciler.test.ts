import { describe, expect, it } from 'vitest';
import { ManagementError } from '../management/management-client.js';
import { finalizer } from './context.js';
import { PolicyReconciler } from './policy-reconciler.js';
import { providerKeyHandler } from './provider-key.handler.js';
import { reconcilerFixture } from '../../test/support/reconciler-fixture.js';

async function setup() {
  const fixture = reconcilerFixture();
  await fixture.createGateway();
  await fixture.putSecret('openai-key', { apiKey: 'sk-first' });
  const reconciler = new PolicyReconciler(fixture.deps, providerKeyHandler(fixture.api), () =>
    fixture.api.objectsOf('ProviderKey'),
  );
  const spec = {
    gatewayRef: { name: 'gw' },
    provider: 'openai',
    type: 'openai',
    secretRef: { name: 'openai-key', key: 'apiKey' },
  };
  const reconcile = async (name = 'openai') => reconciler.reconcile((await fixture.get('ProviderKey', name))!);
  return { ...fixture, reconciler, spec, reconcile };
}

describe('PolicyReconciler with ProviderKey', () => {
  it('applies the key from its Secret, adds the finalizer and reports Ready with a fingerprint', async () => {
    const { gatewayApi, create, spec, reconcile, get, condition } = await setup();
    await create('ProviderKey', 'openai', spec);
    await reconcile();
    expect(gatewayApi.state.providers.get('openai')).toMatchObject({ type: 'openai', apiKey: 'sk-first' });
    const stored = await get('ProviderKey', 'openai');
    expect(stored?.metadata.finalizers).toEqual([finalizer]);
    expect(await condition('ProviderKey', 'openai')).toMatchObject({ status: 'True', reason: 'Applied' });
    expect(stored?.status?.secretVersion).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(JSON.stringify(stored)).not.toContain('sk-first');
  });

  it('is idempotent: a second reconcile writes nothing to the gateway or the status', async () => {
    const { gatewayApi, api, create, spec, reconcile } = await setup();
    await create('ProviderKey', 'openai', spec);
    await reconcile();
    const [gatewayWrites, apiWrites] = [gatewayApi.writes().length, api.writes.length];
    await reconcile();
    expect(gatewayApi.writes()).toHaveLength(gatewayWrites);
    expect(api.writes).toHaveLength(apiWrites);
  });

  it('re-applies when the Secret rotates', async () => {
    const { gatewayApi, create, spec, reconcile, putSecret, get } = await setup();
    await create('ProviderKey', 'openai', spec);
    await reconcile();
    const before = (await get('ProviderKey', 'openai'))?.status?.secretVersion;
    await putSecret('openai-key', { apiKey: 'sk-rotated' });
    await reconcile();
    expect(gatewayApi.state.providers.get('openai')?.apiKey).toBe('sk-rotated');
    expect((await get('ProviderKey', 'openai'))?.status?.secretVersion).not.toBe(before);
  });

  it('corrects drift made through the admin API and says so in an Event', async () => {
    const { gatewayApi, create, spec, reconcile, events } = await setup();
    await create('ProviderKey', 'openai', spec);
    await reconcile();
    gatewayApi.state.providers.delete('openai');
    await reconcile();
    expect(gatewayApi.state.providers.get('openai')?.apiKey).toBe('sk-first');
    expect(await events()).toContain('Normal DriftCorrected');
  });

  it('deletes the gateway key on deletion, then releases the finalizer', async () => {
    const { gatewayApi, api, create, spec, reconcile, get, namespace } = await setup();
    await create('ProviderKey', 'openai', spec);
    await reconcile();
    await api.delete({ apiVersion: 'gw.dev/v1alpha1', kind: 'ProviderKey', namespace, name: 'openai' });
    expect(await get('ProviderKey', 'openai')).not.toBeNull(); // held by the finalizer
    await reconcile();
    expect(gatewayApi.state.providers.has('openai')).toBe(false);
    expect(await get('ProviderKey', 'openai')).toBeNull();
  });

  it('reports a second resource for the same provider as a conflict naming the first, without flip-flopping', async () => {
    const { gatewayApi, create, spec, reconcile, putSecret, condition } = await setup();
    await putSecret('other-key', { apiKey: 'sk-other' });
    await create('ProviderKey', 'openai', spec);
    await create('ProviderKey', 'openai-copy', { ...spec, secretRef: { name: 'other-key', key: 'apiKey' } });
    for (let round = 0; round < 3; round += 1) {
      await reconcile('openai');
      await reconcile('openai-copy');
    }
    expect(gatewayApi.calls.filter((call) => call === 'PUT provider openai')).toHaveLength(1);
    expect(gatewayApi.state.providers.get('openai')?.apiKey).toBe('sk-first');
    const conflict = await condition('ProviderKey', 'openai-copy');
    expect(conflict).toMatchObject({ status: 'False', reason: 'Conflict' });
    expect(conflict?.message).toContain('ProviderKey "openai" already applies provider "openai"');
    expect(await condition('ProviderKey', 'openai-copy', 'Stalled')).toMatchObject({ status: 'True' });
  });

  it('says Stalled when the Secret is missing, GatewayNotFound when the Gateway is', async () => {
    const { create, spec, reconcile, condition } = await setup();
    await create('ProviderKey', 'openai', { ...spec, secretRef: { name: 'absent', key: 'apiKey' } });
    await reconcile();
    expect(await condition('ProviderKey', 'openai', 'Stalled')).toMatchObject({
      status: 'True',
      reason: 'SecretNotFound',
    });
    await create('ProviderKey', 'elsewhere', { ...spec, provider: 'x', gatewayRef: { name: 'nope' } });
    await reconcile('elsewhere');
    expect(await condition('ProviderKey', 'elsewhere')).toMatchObject({ status: 'False', reason: 'GatewayNotFound' });
  });

  it('waits for a gateway that is not ready, and retries with backoff when it fails transiently', async () => {
    const { gatewayApi, create, spec, reconcile, condition, setGatewayReady, events } = await setup();
    await create('ProviderKey', 'openai', spec);
    setGatewayReady(false);
    expect(await reconcile()).toEqual({ requeueAfterMs: 10_000 });
    expect(await condition('ProviderKey', 'openai', 'Reconciling')).toMatchObject({
      status: 'True',
      reason: 'RetryingAfterError',
    });
    setGatewayReady(true);
    gatewayApi.failWith = new ManagementError(503, 'unavailable', 'draining');
    await expect(reconcile()).rejects.toThrow('draining');
    expect(await condition('ProviderKey', 'openai', 'Synced')).toMatchObject({
      status: 'False',
      reason: 'GatewayUnavailable',
    });
    expect(await events()).toContain('Warning ApplyFailed');
  });

  it('stalls, without retrying, when the gateway refuses the change', async () => {
    const { gatewayApi, create, spec, reconcile, condition } = await setup();
    await create('ProviderKey', 'openai', spec);
    gatewayApi.failWith = new ManagementError(400, 'invalid_request', 'baseUrl must be public');
    expect(await reconcile()).toEqual({});
    expect(await condition('ProviderKey', 'openai', 'Stalled')).toMatchObject({
      status: 'True',
      reason: 'RejectedByGateway',
    });
  });
});

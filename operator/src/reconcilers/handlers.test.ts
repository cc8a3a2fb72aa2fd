import { describe, expect, it } from 'vitest';
import { desktopPolicyHandler } from './desktop-policy.handler.js';
import { PolicyReconciler, type PolicyHandler } from './policy-reconciler.js';
import { reconcilerFixture } from './reconciler-fixture.js';
import { routingConfigHandler } from './routing-config.handler.js';
import { keyIdAnnotation, serviceKeyHandler } from './service-key.handler.js';
import { userCapHandler } from './user-cap.handler.js';

async function setup(kind: string, handler: (fixture: ReturnType<typeof reconcilerFixture>) => PolicyHandler) {
  const fixture = reconcilerFixture();
  await fixture.createGateway();
  const reconciler = new PolicyReconciler(fixture.deps, handler(fixture), () => fixture.api.objectsOf(kind));
  const reconcile = async (name: string) => reconciler.reconcile((await fixture.get(kind, name))!);
  const remove = async (name: string) => {
    await fixture.api.delete({ apiVersion: 'gw.dev/v1alpha1', kind, namespace: fixture.namespace, name });
    await reconcile(name);
  };
  return { ...fixture, reconcile, remove };
}

describe('ServiceKey', () => {
  const spec = { gatewayRef: { name: 'gw' }, name: 'ci', team: 'platform', monthlyBudgetUsd: '50.00', secretName: 'ci-key' };

  it('mints once, writes the raw key into its Secret and only the id into status', async () => {
    const { gatewayApi, api, create, reconcile, get, namespace } = await setup('ServiceKey', (fixture) => serviceKeyHandler(fixture.api));
    await create('ServiceKey', 'ci', spec);
    await reconcile('ci');
    await reconcile('ci');
    expect(gatewayApi.calls.filter((call) => call.startsWith('POST key'))).toHaveLength(1);
    const [key] = [...gatewayApi.state.keys.values()];
    expect(key).toMatchObject({ name: 'ci', team: 'platform', monthlyBudgetUsd: 50 });
    const secret = await api.get({ apiVersion: 'v1', kind: 'Secret', namespace, name: 'ci-key' });
    expect(Buffer.from((secret?.data as { apiKey: string }).apiKey, 'base64').toString()).toMatch(/^ark_svc_/);
    expect(secret?.metadata.annotations?.[keyIdAnnotation]).toBe(key.id);
    expect(secret?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'ServiceKey', name: 'ci' });
    expect((await get('ServiceKey', 'ci'))?.status?.keyId).toBe(key.id);
  });

  it('follows the budget with PATCH and revokes the key on deletion', async () => {
    const { gatewayApi, api, create, reconcile, remove, get } = await setup('ServiceKey', (fixture) => serviceKeyHandler(fixture.api));
    await create('ServiceKey', 'ci', spec);
    await reconcile('ci');
    const stored = (await get('ServiceKey', 'ci'))!;
    await api.replace({ ...stored, spec: { ...spec, monthlyBudgetUsd: '0' } });
    await reconcile('ci');
    const keyId = (await get('ServiceKey', 'ci'))!.status!.keyId!;
    expect(gatewayApi.state.keys.get(keyId)?.monthlyBudgetUsd).toBeNull(); // "0" means unlimited
    await remove('ci');
    expect(gatewayApi.state.keys.get(keyId)?.status).toBe('revoked');
    expect(await get('ServiceKey', 'ci')).toBeNull();
  });

  it('replaces a key revoked through the admin API and records the drift', async () => {
    const { gatewayApi, create, reconcile, get, events } = await setup('ServiceKey', (fixture) => serviceKeyHandler(fixture.api));
    await create('ServiceKey', 'ci', spec);
    await reconcile('ci');
    const first = (await get('ServiceKey', 'ci'))!.status!.keyId!;
    await gatewayApi.revokeKey(first);
    await reconcile('ci');
    expect((await get('ServiceKey', 'ci'))!.status!.keyId).not.toBe(first);
    expect(await events()).toContain('Normal DriftCorrected');
  });

  it('never overwrites a Secret it does not own', async () => {
    const { gatewayApi, create, reconcile, putSecret, condition } = await setup('ServiceKey', (fixture) => serviceKeyHandler(fixture.api));
    await putSecret('ci-key', { apiKey: 'someone elses' });
    await create('ServiceKey', 'ci', spec);
    await reconcile('ci');
    expect(gatewayApi.state.keys.size).toBe(0);
    expect(await condition('ServiceKey', 'ci', 'Stalled')).toMatchObject({ status: 'True', reason: 'SecretExists' });
  });
});

describe('UserCap', () => {
  it('applies caps as numbers with the webhook from its Secret and clears them on deletion', async () => {
    const { gatewayApi, create, reconcile, remove, putSecret } = await setup('UserCap', (fixture) => userCapHandler(fixture.api));
    await putSecret('alerts', { url: 'https://hooks.example.com/T1' });
    await create('UserCap', 'alice', { gatewayRef: { name: 'gw' }, user: 'alice@example.com', monthlyTokens: 1000, maxUsd: '12.50', reset: 'monthly', alerts: { thresholdsPercent: [80], webhookSecretRef: { name: 'alerts', key: 'url' } } });
    await reconcile('alice');
    expect(gatewayApi.state.userLimits.get('alice@example.com')).toEqual({ monthlyTokens: 1000, maxUsd: 12.5, softUsd: null, reset: 'monthly', alerts: { thresholdsPercent: [80], webhookUrl: 'https://hooks.example.com/T1' } });
    await remove('alice');
    expect(gatewayApi.state.userLimits.has('alice@example.com')).toBe(false);
  });
});

describe('RoutingConfig', () => {
  it('applies routing, aliases and prices, corrects drift in one part only', async () => {
    const { gatewayApi, create, reconcile } = await setup('RoutingConfig', () => routingConfigHandler);
    await create('RoutingConfig', 'routing', {
      gatewayRef: { name: 'gw' },
      defaultProvider: 'openai',
      routing: { mode: 'fallback', onStatusCodes: [429], targets: [{ provider: 'openai' }, { provider: 'anthropic' }] },
      aliases: [{ name: 'fast', model: 'gpt-4.1-mini' }],
      models: [{ name: 'gpt-4.1-mini', inputUsdPerMillionTokens: '0.40', maxOutputTokens: 32768 }],
    });
    await reconcile('routing');
    expect(gatewayApi.state.routing).toEqual({ defaultProvider: 'openai', routing: { mode: 'fallback', onStatusCodes: [429], targets: [{ provider: 'openai' }, { provider: 'anthropic' }] } });
    expect(gatewayApi.state.models).toEqual([{ name: 'gpt-4.1-mini', inputUsdPerMillionTokens: 0.4, maxOutputTokens: 32768 }]);
    gatewayApi.state.aliases = [];
    const before = gatewayApi.writes().length;
    await reconcile('routing');
    expect(gatewayApi.writes().slice(before)).toEqual(['PUT aliases']);
  });
});

describe('DesktopPolicy', () => {
  it('puts the policy and disables it on deletion', async () => {
    const { gatewayApi, create, reconcile, remove } = await setup('DesktopPolicy', () => desktopPolicyHandler);
    await create('DesktopPolicy', 'desktop', { gatewayRef: { name: 'gw' }, enabled: true, settings: { chatTabEnabled: true } });
    await reconcile('desktop');
    expect(gatewayApi.state.desktopPolicy).toEqual({ enabled: true, settings: { chatTabEnabled: true } });
    await remove('desktop');
    expect(gatewayApi.state.desktopPolicy).toEqual({ enabled: false, settings: {} });
  });
});

import { routingConfigSpec } from '@gw/contracts';
import { describe, expect, it } from 'vitest';
import { ManagementError } from '../management/management-client.js';
import { desktopPolicyHandler } from './desktop-policy.handler.js';
import { PolicyReconciler, type PolicyHandler } from './policy-reconciler.js';
import { reconcilerFixture } from '../../test/support/reconciler-fixture.js';
import { routingConfigHandler } from './routing-config.handler.js';
import { providerKeyHandler } from './provider-key.handler.js';
import { keyIdAnnotation, serviceKeyHandler } from './service-key.handler.js';
import { userCapHandler, webhookVersionAnnotation } from './user-cap.handler.js';

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
  const spec = {
    gatewayRef: { name: 'gw' },
    name: 'ci',
    team: 'platform',
    monthlyBudgetUsd: '50.00',
    secretName: 'ci-key',
  };

  it('mints once, writes the raw key into its Secret and only the id into status', async () => {
    const { gatewayApi, api, create, reconcile, get, namespace } = await setup('ServiceKey', (fixture) =>
      serviceKeyHandler(fixture.api),
    );
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
    const { gatewayApi, api, create, reconcile, remove, get } = await setup('ServiceKey', (fixture) =>
      serviceKeyHandler(fixture.api),
    );
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
    const { gatewayApi, create, reconcile, get, events } = await setup('ServiceKey', (fixture) =>
      serviceKeyHandler(fixture.api),
    );
    await create('ServiceKey', 'ci', spec);
    await reconcile('ci');
    const first = (await get('ServiceKey', 'ci'))!.status!.keyId!;
    await gatewayApi.revokeKey(first);
    await reconcile('ci');
    expect((await get('ServiceKey', 'ci'))!.status!.keyId).not.toBe(first);
    expect(await events()).toContain('Normal DriftCorrected');
  });

  it('never overwrites a Secret it does not own', async () => {
    const { gatewayApi, create, reconcile, putSecret, condition } = await setup('ServiceKey', (fixture) =>
      serviceKeyHandler(fixture.api),
    );
    await putSecret('ci-key', { apiKey: 'someone elses' });
    await create('ServiceKey', 'ci', spec);
    await reconcile('ci');
    expect(gatewayApi.state.keys.size).toBe(0);
    expect(await condition('ServiceKey', 'ci', 'Stalled')).toMatchObject({ status: 'True', reason: 'SecretExists' });
  });
});

describe('ProviderKey', () => {
  const spec = {
    gatewayRef: { name: 'gw' },
    provider: 'anthropic',
    type: 'anthropic',
    baseUrl: 'https://llm.example.com/',
    secretRef: { name: 'anthropic', key: 'apiKey' },
  };

  it('compares with what the gateway stores (normalised base URL, trimmed key) and writes once', async () => {
    const { gatewayApi, create, reconcile, putSecret } = await setup('ProviderKey', (fixture) =>
      providerKeyHandler(fixture.api),
    );
    await putSecret('anthropic', { apiKey: 'sk-ant-one\n' });
    await create('ProviderKey', 'anthropic', spec);
    await reconcile('anthropic');
    await reconcile('anthropic');
    expect(gatewayApi.state.providers.get('anthropic')).toEqual({
      slug: 'anthropic',
      type: 'anthropic',
      baseUrl: 'https://llm.example.com/v1',
      apiVersion: null,
      apiKey: 'sk-ant-one',
    });
    expect(gatewayApi.writes()).toEqual(['PUT provider anthropic']);
  });

  it('re-applies a rotated Secret and says so in an Event, not as drift', async () => {
    const { gatewayApi, create, reconcile, putSecret, events, get } = await setup('ProviderKey', (fixture) =>
      providerKeyHandler(fixture.api),
    );
    await putSecret('anthropic', { apiKey: 'sk-ant-one' });
    await create('ProviderKey', 'anthropic', spec);
    await reconcile('anthropic');
    const firstVersion = (await get('ProviderKey', 'anthropic'))!.status!.secretVersion;
    await putSecret('anthropic', { apiKey: 'sk-ant-two' });
    await reconcile('anthropic');
    expect(gatewayApi.state.providers.get('anthropic')?.apiKey).toBe('sk-ant-two');
    expect((await get('ProviderKey', 'anthropic'))!.status!.secretVersion).not.toBe(firstVersion);
    expect(await events()).toEqual(['Normal SecretRotated']);
  });
});

describe('UserCap', () => {
  const spec = {
    gatewayRef: { name: 'gw' },
    user: 'alice@example.com',
    monthlyTokens: 1000,
    maxUsd: '12.50',
    reset: 'monthly',
    alerts: { thresholdsPercent: [80], webhookSecretRef: { name: 'alerts', key: 'url' } },
  };

  it('applies caps as numbers with the webhook from its Secret and clears them on deletion', async () => {
    const { gatewayApi, create, reconcile, remove, putSecret } = await setup('UserCap', (fixture) =>
      userCapHandler(fixture.api),
    );
    await putSecret('alerts', { url: 'https://hooks.example.com/T1' });
    await create('UserCap', 'alice', spec);
    await reconcile('alice');
    expect(gatewayApi.state.userLimits.get('alice@example.com')).toEqual({
      monthlyTokens: 1000,
      maxUsd: 12.5,
      softUsd: null,
      reset: 'monthly',
      alerts: { thresholdsPercent: [80], webhookUrl: 'https://hooks.example.com/T1' },
    });
    await remove('alice');
    expect(gatewayApi.state.userLimits.has('alice@example.com')).toBe(false);
  });

  it('judges drift on what the gateway shows and re-sends the write-only webhook only when its Secret changes', async () => {
    const { gatewayApi, create, reconcile, putSecret, get, events } = await setup('UserCap', (fixture) =>
      userCapHandler(fixture.api),
    );
    await putSecret('alerts', { url: 'https://hooks.example.com/T1' });
    await create('UserCap', 'alice', spec);
    await reconcile('alice');
    await reconcile('alice');
    expect(gatewayApi.writes()).toEqual(['PATCH limits alice@example.com']);
    const secretVersion = (await get('UserCap', 'alice'))!.metadata.annotations?.[webhookVersionAnnotation];
    expect(secretVersion).toMatch(/^alerts@/);

    // Drift in a readable field: corrected without re-sending the URL, which the gateway keeps.
    gatewayApi.state.userLimits.get('alice@example.com')!.maxUsd = 99;
    await reconcile('alice');
    expect(gatewayApi.calls.at(-1)).toBe('PATCH limits alice@example.com');
    expect(gatewayApi.state.userLimits.get('alice@example.com')).toMatchObject({
      maxUsd: 12.5,
      alerts: { webhookUrl: 'https://hooks.example.com/T1' },
    });
    expect(await events()).toEqual(['Normal DriftCorrected']);

    // The URL itself changed behind the operator: invisible (write-only), so left alone...
    gatewayApi.state.userLimits.get('alice@example.com')!.alerts!.webhookUrl = 'https://elsewhere.example.com';
    const before = gatewayApi.writes().length;
    await reconcile('alice');
    expect(gatewayApi.writes()).toHaveLength(before);
    // ...until the Secret rotates, which re-applies it.
    await putSecret('alerts', { url: 'https://hooks.example.com/T2' });
    await reconcile('alice');
    expect(gatewayApi.state.userLimits.get('alice@example.com')?.alerts?.webhookUrl).toBe(
      'https://hooks.example.com/T2',
    );
    expect((await get('UserCap', 'alice'))!.metadata.annotations?.[webhookVersionAnnotation]).not.toBe(secretVersion);
    expect(await events()).toContain('Normal SecretRotated');
  });

  it('re-sends the webhook when the entry lost it', async () => {
    const { gatewayApi, create, reconcile, putSecret } = await setup('UserCap', (fixture) =>
      userCapHandler(fixture.api),
    );
    await putSecret('alerts', { url: 'https://hooks.example.com/T1' });
    await create('UserCap', 'alice', spec);
    await reconcile('alice');
    await gatewayApi.clearUserLimits('alice@example.com');
    await reconcile('alice');
    expect(gatewayApi.state.userLimits.get('alice@example.com')?.alerts).toEqual({
      thresholdsPercent: [80],
      webhookUrl: 'https://hooks.example.com/T1',
    });
  });
});

describe('RoutingConfig', () => {
  const spec = {
    gatewayRef: { name: 'gw' },
    defaultProvider: 'openai',
    routing: {
      mode: 'fallback',
      onStatusCodes: [429],
      targets: [
        { provider: 'openai' },
        { provider: 'anthropic', model: 'claude-sonnet-4-5', retry: { attempts: 2, onStatusCodes: [529] } },
      ],
    },
    aliases: [
      { name: 'fast', model: 'gpt-4.1-mini' },
      { name: 'smart', model: 'claude-sonnet-4-5', provider: 'anthropic' },
    ],
    models: [
      {
        name: 'gpt-4.1-mini',
        inputUsdPerMillionTokens: '0.40',
        outputUsdPerMillionTokens: '1.60',
        maxOutputTokens: 32768,
      },
      {
        name: 'claude-sonnet-4-5',
        provider: 'anthropic',
        inputUsdPerMillionTokens: '3',
        outputUsdPerMillionTokens: '15',
        cacheReadUsdPerMillionTokens: '0.30',
      },
    ],
  };

  it('applies routing, aliases and prices in the gateway shapes, and corrects drift in one part only', async () => {
    const { gatewayApi, create, reconcile } = await setup('RoutingConfig', () => routingConfigHandler);
    await gatewayApi.putProviderKey('anthropic', { type: 'anthropic', apiKey: 'sk-ant' });
    gatewayApi.state.routing.defaultModel = 'gpt-4.1';
    await create('RoutingConfig', 'routing', spec);
    await reconcile('routing');
    expect(gatewayApi.state.routing).toEqual({
      defaultProvider: 'openai',
      defaultModel: 'gpt-4.1', // not the resource's: carried through
      config: {
        mode: 'fallback',
        onStatusCodes: [429],
        targets: [
          { provider: 'openai' },
          { provider: 'anthropic', model: 'claude-sonnet-4-5', retry: { attempts: 2, onStatusCodes: [529] } },
        ],
      },
    });
    expect(gatewayApi.state.aliases).toEqual({
      fast: { provider: 'openai', model: 'gpt-4.1-mini' },
      smart: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    });
    expect(gatewayApi.state.models).toEqual({
      'gpt-4.1-mini': {
        family: 'openai',
        inputPerMTok: 0.4,
        outputPerMTok: 1.6,
        cacheReadPerMTok: 0.4,
        cacheWritePerMTok: 0.4,
        maxOutputTokens: 32768,
      },
      'claude-sonnet-4-5': {
        family: 'anthropic',
        inputPerMTok: 3,
        outputPerMTok: 15,
        cacheReadPerMTok: 0.3,
        cacheWritePerMTok: 3,
      },
    });
    const writes = gatewayApi.writes().length;
    await reconcile('routing');
    expect(gatewayApi.writes()).toHaveLength(writes);
    gatewayApi.state.aliases = {};
    await reconcile('routing');
    expect(gatewayApi.writes().slice(writes)).toEqual(['PUT aliases']);
  });

  it('requires both list prices of a model entry in the CRD schema, as the gateway needs them', () => {
    const parsed = routingConfigSpec.safeParse({ ...spec, models: [{ name: 'gpt-4.1-mini', maxOutputTokens: 1000 }] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'models.0.inputUsdPerMillionTokens',
      'models.0.outputUsdPerMillionTokens',
    ]);
  });

  it('clears routing, aliases and prices on deletion but keeps the default model', async () => {
    const { gatewayApi, create, reconcile, remove } = await setup('RoutingConfig', () => routingConfigHandler);
    gatewayApi.state.routing.defaultModel = 'gpt-4.1';
    await create('RoutingConfig', 'routing', spec);
    await reconcile('routing');
    await remove('routing');
    expect(gatewayApi.state).toMatchObject({
      routing: { defaultProvider: null, defaultModel: 'gpt-4.1', config: null },
      aliases: {},
      models: {},
    });
  });
});

describe('DesktopPolicy', () => {
  it('puts the policy and disables it on deletion', async () => {
    const { gatewayApi, create, reconcile, remove } = await setup('DesktopPolicy', () => desktopPolicyHandler);
    await create('DesktopPolicy', 'desktop', {
      gatewayRef: { name: 'gw' },
      enabled: true,
      settings: { chatTabEnabled: true },
    });
    await reconcile('desktop');
    expect(gatewayApi.state.desktopPolicy).toEqual({ enabled: true, settings: { chatTabEnabled: true } });
    await remove('desktop');
    expect(gatewayApi.state.desktopPolicy).toEqual({ enabled: false, settings: {} });
  });

  it("reports a policy the gateway refuses as Stalled with the gateway's reason", async () => {
    const { gatewayApi, create, reconcile, condition } = await setup('DesktopPolicy', () => desktopPolicyHandler);
    gatewayApi.failWith = new ManagementError(
      400,
      'policy_carries_credential',
      'body.settings.managedMcpServers.x.env.TOKEN holds a credential-shaped value',
    );
    await create('DesktopPolicy', 'desktop', {
      gatewayRef: { name: 'gw' },
      enabled: true,
      settings: { managedMcpServers: { x: { env: { TOKEN: 'literal' } } } },
    });
    await reconcile('desktop');
    expect(await condition('DesktopPolicy', 'desktop', 'Stalled')).toMatchObject({
      status: 'True',
      reason: 'RejectedByGateway',
      message: expect.stringContaining('policy_carries_credential'),
    });
  });
});

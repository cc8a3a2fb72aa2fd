import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, startTestGateway, type TestGateway } from '../../gateway/test/helpers.js';
import { FakeManagementClient } from './support/fake-management-client.js';
import { HttpManagementClient } from '../src/management/http-management-client.js';
import { ManagementError, operatorScopes, type ManagementClient } from '../src/management/management-client.js';

// One suite for the ManagementClient contract, run against the in-memory fake the reconciler tests use and against
// the real gateway's Management API v1 through HttpManagementClient: the fake may not drift from the gateway's
// bodies and semantics (normalised base URLs, defaulted cache prices, a write-only webhook URL, ...).

interface Implementation {
  /** The admin-token client: mints the operator's key. */
  admin: ManagementClient;
  /** A client holding the key minted with `operatorScopes`. */
  scoped(key: string): ManagementClient;
  close(): Promise<void>;
}

async function realGateway(): Promise<Implementation> {
  const gateway: TestGateway = await startTestGateway({ env: { GW_CUSTOM_HOST_ALLOWLIST: 'upstream.example.com' } });
  const address = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    admin: new HttpManagementClient({ baseUrl: address, bearer: adminToken }),
    scoped: (key) => new HttpManagementClient({ baseUrl: address, bearer: key }),
    close: () => gateway.close(),
  };
}

async function fakeGateway(): Promise<Implementation> {
  const fake = new FakeManagementClient();
  return { admin: fake, scoped: () => fake, close: async () => undefined };
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe.each([
  ['the in-memory fake', fakeGateway],
  ['the real gateway over HTTP', realGateway],
])('ManagementClient conformance: %s', (_name, start) => {
  let implementation: Implementation;
  let client: ManagementClient;

  beforeAll(async () => {
    implementation = await start();
    const minted = await implementation.admin.createAdminKey({
      label: 'gw-operator (conformance)',
      scopes: [...operatorScopes],
      neverExpires: true,
    });
    expect(minted.key).toMatch(/^aak_/);
    client = implementation.scoped(minted.key);
  });
  afterAll(async () => {
    await implementation.close();
  });

  it('mints the operator key with exactly its scopes', async () => {
    expect((await client.me()).scopes).toEqual(expect.arrayContaining([...operatorScopes]));
  });

  it('stores providers as the gateway normalises them and deletes idempotently', async () => {
    await client.putProviderKey('openai', { type: 'openai', apiKey: 'sk-one' });
    await client.putProviderKey('claude', { type: 'anthropic', apiKey: 'sk-ant', baseUrl: 'https://llm.example.com/' });
    await client.putProviderKey('azure', {
      type: 'azure-openai',
      apiKey: 'az',
      baseUrl: 'https://acme.openai.azure.com/openai',
      apiVersion: '2024-10-21',
    });
    await client.putProviderKey('peer', {
      type: 'gw-upstream',
      apiKey: 'ark_peer',
      baseUrl: 'https://upstream.example.com/',
    });
    expect(await client.listProviderKeys()).toEqual([
      {
        slug: 'azure',
        type: 'azure-openai',
        baseUrl: 'https://acme.openai.azure.com/openai',
        apiVersion: '2024-10-21',
        apiKey: 'az',
      },
      { slug: 'claude', type: 'anthropic', baseUrl: 'https://llm.example.com/v1', apiVersion: null, apiKey: 'sk-ant' },
      { slug: 'openai', type: 'openai', baseUrl: 'https://api.openai.com/v1', apiVersion: null, apiKey: 'sk-one' },
      {
        slug: 'peer',
        type: 'gw-upstream',
        baseUrl: 'https://upstream.example.com',
        apiVersion: null,
        apiKey: 'ark_peer',
      },
    ]);
    const missingBase = await rejection(client.putProviderKey('compat', { type: 'openai-compatible', apiKey: 'x' }));
    expect(missingBase).toBeInstanceOf(ManagementError);
    expect(missingBase).toMatchObject({ status: 400, retryable: false });
    for (const slug of ['azure', 'claude', 'openai', 'peer']) await client.deleteProviderKey(slug);
    await client.deleteProviderKey('openai');
    expect(await client.listProviderKeys()).toEqual([]);
  });

  it('round-trips the routing document, aliases and model prices', async () => {
    expect(await client.getRouting()).toEqual({ defaultProvider: null, defaultModel: null, config: null });
    const config = {
      mode: 'fallback',
      onStatusCodes: [429, 503],
      targets: [
        { provider: 'openai', model: 'gpt-4.1' },
        { provider: 'claude', retry: { attempts: 2, onStatusCodes: [529] } },
      ],
    };
    await client.putRouting({ defaultProvider: 'openai', defaultModel: 'gpt-4.1-mini', config });
    expect(await client.getRouting()).toEqual({ defaultProvider: 'openai', defaultModel: 'gpt-4.1-mini', config });
    await client.putAliases({ fast: { provider: 'openai', model: 'gpt-4.1-mini' } });
    expect(await client.getAliases()).toEqual({ fast: { provider: 'openai', model: 'gpt-4.1-mini' } });
    await client.putModels({
      'gpt-4.1-mini': { family: 'openai', inputPerMTok: 0.4, outputPerMTok: 1.6, maxOutputTokens: 32768 },
    });
    expect(await client.getModels()).toEqual({
      'gpt-4.1-mini': {
        family: 'openai',
        inputPerMTok: 0.4,
        outputPerMTok: 1.6,
        cacheReadPerMTok: 0.4,
        cacheWritePerMTok: 0.4,
        maxOutputTokens: 32768,
      },
    });
    await client.putRouting({ defaultProvider: null, defaultModel: null, config: null });
    await client.putAliases({});
    await client.putModels({});
    expect(await client.getAliases()).toEqual({});
  });

  it('keeps the webhook URL write-only, merges PATCHes and removes an entry that limits nothing', async () => {
    const user = 'ada@example.com';
    expect(await client.getUserLimits(user)).toBeNull();
    await client.patchUserLimits(user, {
      monthlyTokens: 1000,
      maxUsd: 12.5,
      softUsd: null,
      reset: 'weekly',
      alerts: { thresholdsPercent: [80, 100], webhookUrl: 'https://hooks.example.com/T1' },
    });
    const view = {
      monthlyTokens: 1000,
      maxUsd: 12.5,
      softUsd: null,
      reset: 'weekly',
      alerts: { thresholdsPercent: [80, 100], webhookConfigured: true },
    };
    expect(await client.getUserLimits(user)).toEqual(view);
    await client.patchUserLimits(user, { maxUsd: 20, alerts: { thresholdsPercent: [50] } });
    expect(await client.getUserLimits(user)).toEqual({
      ...view,
      maxUsd: 20,
      alerts: { thresholdsPercent: [50], webhookConfigured: true },
    });
    expect(await rejection(client.patchUserLimits(user, { softUsd: 30 }))).toMatchObject({
      status: 400,
      retryable: false,
    });
    await client.clearUserLimits(user);
    expect(await client.getUserLimits(user)).toBeNull();
    await client.clearUserLimits(user);
  });

  it('mints, reads, patches and revokes service keys', async () => {
    const minted = await client.createServiceKey({ name: 'ci', team: 'platform', monthlyBudgetUsd: 50 });
    expect(minted.key).toMatch(/^ark_svc_/);
    expect(await client.getKey(minted.id)).toEqual({
      id: minted.id,
      name: 'ci',
      team: 'platform',
      monthlyBudgetUsd: 50,
      status: 'active',
    });
    await client.patchKey(minted.id, { name: 'ci-runner', monthlyBudgetUsd: null });
    expect(await client.getKey(minted.id)).toMatchObject({
      name: 'ci-runner',
      team: 'platform',
      monthlyBudgetUsd: null,
    });
    await client.revokeKey(minted.id);
    expect(await client.getKey(minted.id)).toMatchObject({ status: 'revoked' });
    await client.revokeKey('key_that_never_was');
    expect(await client.getKey('key_that_never_was')).toBeNull();
  });

  it('serves a disabled, empty desktop policy until written, then the written one', async () => {
    expect(await client.getDesktopPolicy()).toEqual({ enabled: false, settings: {} });
    const settings = {
      chatTabEnabled: true,
      inferenceModels: [{ name: 'claude-sonnet-4-5' }],
      managedMcpServers: { github: { command: 'npx', env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } } },
    };
    await client.putDesktopPolicy({ enabled: true, settings });
    expect(await client.getDesktopPolicy()).toEqual({ enabled: true, settings });
    await client.putDesktopPolicy({ enabled: false, settings: {} });
  });
});

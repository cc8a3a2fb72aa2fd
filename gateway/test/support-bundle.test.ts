import { describe, expect, it } from 'vitest';
import { adminHeaders, adminToken, mintClientKey, startTestGateway } from './helpers.js';

describe('the support bundle', () => {
  it('is a content-free snapshot: health, configuration without secrets, providers without keys, counts', async () => {
    const secretDbPassword = 'pg-password-must-not-leak';
    const gateway = await startTestGateway({
      env: {
        GW_OPTIMIZER_URL: 'http://optimizer.internal:8088/some/path',
        GW_OPTIMIZER_TOKEN: 'optimizer-token-must-not-leak',
        GW_REDIS_URL: `redis://default:${secretDbPassword}@redis.internal:6379/0`,
        GW_CUSTOM_HOST_ALLOWLIST: 'a.example.com,b.example.com',
      },
    });
    try {
      const providerKey = 'sk-provider-key-must-not-leak-1234567890';
      await gateway.app.inject({
        method: 'PUT',
        url: '/admin/v1/providers/openai/key',
        headers: adminHeaders,
        payload: { apiKey: providerKey, baseUrl: 'https://api.openai.example/v1' },
      });
      const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'platform' });

      const response = await gateway.app.inject({
        method: 'GET',
        url: '/admin/v1/settings/support-bundle',
        headers: adminHeaders,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-disposition']).toMatch(
        /^attachment; filename="gw-support-bundle-\d{4}-\d{2}-\d{2}\.json"$/,
      );
      const bundle = response.json();
      expect(bundle).toMatchObject({
        bundleVersion: 1,
        gateway: { version: expect.any(String), node: process.version },
        health: { store: { reachable: true }, schema: { upToDate: true } },
        providers: [{ slug: 'openai', type: 'openai', origin: 'https://api.openai.example', hasKey: true }],
        inventory: { clientKeysActive: 1, serviceKeysActive: 0, revokedUsers: 0, seats: 0 },
        endpointControl: { configured: false },
      });
      expect(bundle.configuration).toMatchObject({
        GW_ADMIN_TOKEN: 'set',
        GW_KEYSTORE_KEY: 'set',
        GW_OPTIMIZER_TOKEN: 'set',
        GW_CONTENT_KEY: 'unset',
        GW_OPTIMIZER_URL: 'http://optimizer.internal:8088',
        GW_REDIS_URL: 'redis://redis.internal:6379',
        GW_CUSTOM_HOST_ALLOWLIST: 2,
        GW_LOG_LEVEL: 'info',
      });
      for (const secret of [
        adminToken,
        'optimizer-token-must-not-leak',
        secretDbPassword,
        providerKey,
        key,
        'ada@example.com',
        'ab'.repeat(32),
      ]) {
        expect(response.body).not.toContain(secret);
      }
      expect(
        (await gateway.app.inject({ method: 'GET', url: '/admin/support/bundle', headers: adminHeaders })).statusCode,
      ).toBe(200);
    } finally {
      await gateway.close();
    }
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startIdentityProvider, type IdentityProviderHandle } from '@gw/testkit';
import { mintAdminKey } from './admin-support.js';
import { adminHeaders, bearer, startTestGateway, type TestGateway } from './helpers.js';

const secret = 'client-secret-never-shown-42';

describe('the identity-provider configuration', () => {
  let gateway: TestGateway;
  let idp: IdentityProviderHandle;
  beforeEach(async () => {
    idp = await startIdentityProvider();
    gateway = await startTestGateway({ env: { GW_PUBLIC_URL: 'https://gw.example.com' } });
  });
  afterEach(async () => {
    await gateway.close();
    await idp.close();
  });
  const put = (payload: Record<string, unknown>, headers: Record<string, string> = adminHeaders) =>
    gateway.app.inject({ method: 'PUT', url: '/admin/v1/sso', headers, payload });
  const read = async () =>
    (await gateway.app.inject({ method: 'GET', url: '/admin/v1/sso', headers: adminHeaders })).json<{
      configured: boolean;
      issuer: string | null;
    }>();

  it('saves a provider whose discovery validates, and never returns or stores the secret in the clear', async () => {
    const saved = await put({
      issuer: idp.issuer,
      clientId: 'gw-console',
      clientSecret: secret,
      claimMapping: { username: 'preferred_username' },
      roleGroupMap: { auditors: 'auditor' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      configured: true,
      issuer: idp.issuer,
      clientId: 'gw-console',
      clientSecretSet: true,
      claimMapping: { username: 'preferred_username', displayName: 'name' },
      adminRole: 'owner',
      roleGroupMap: { auditors: 'auditor' },
      redirectUri: 'https://gw.example.com/admin/sso/callback',
      updatedAt: expect.any(String),
      updatedBy: 'admin-token',
    });
    const legacy = await gateway.app.inject({ method: 'GET', url: '/admin/idp-config', headers: adminHeaders });
    expect(legacy.headers.deprecation).toBe('true');
    expect(legacy.headers.link).toBe('</admin/v1/sso>; rel="successor-version"');
    expect(legacy.body).not.toContain(secret);
    const { rows } = await gateway.deps.db.query<{ client_secret_sealed: string }>(
      'SELECT client_secret_sealed FROM gw_idp_config',
    );
    expect(rows[0]?.client_secret_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(rows)).not.toContain(secret);
    const audit = await gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/audit/events?category=sso',
      headers: adminHeaders,
    });
    expect(audit.json<{ data: Array<{ action: string }> }>().data.map((entry) => entry.action)).toEqual([
      'sso.idp.update',
    ]);
    expect(audit.body).not.toContain(secret);

    // Omitting the secret keeps it.
    const kept = await put({ issuer: idp.issuer, clientId: 'gw-console-2' });
    expect(kept.json()).toMatchObject({ clientId: 'gw-console-2', clientSecretSet: true });
    const after = await gateway.deps.db.query<{ client_secret_sealed: string }>(
      'SELECT client_secret_sealed FROM gw_idp_config',
    );
    expect(after.rows[0]?.client_secret_sealed).toBe(rows[0]?.client_secret_sealed);
  });

  it('saves nothing when discovery fails: unreachable, down, another issuer, or a first write without a secret', async () => {
    // Port 1 (tcpmux) is closed on any test machine: the connection is refused.
    const refused = await put({ issuer: 'http://127.0.0.1:1', clientId: 'gw-console', clientSecret: secret });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: 'idp_config_invalid' } });
    idp.failKeyDiscovery(true);
    const down = await put({ issuer: idp.issuer, clientId: 'gw-console', clientSecret: secret });
    expect(down.statusCode).toBe(400);
    expect(down.json<{ error: { message: string } }>().error.message).toContain('answered 503');
    idp.failKeyDiscovery(false);
    const otherIssuer = await put({ issuer: `${idp.issuer}/tenant`, clientId: 'gw-console', clientSecret: secret });
    expect(otherIssuer.statusCode).toBe(400);
    const noSecret = await put({ issuer: idp.issuer, clientId: 'gw-console' });
    expect(noSecret.statusCode).toBe(400);
    expect(await read()).toMatchObject({ configured: false, issuer: null });
  });

  it('answers the portal link and removes the provider, ending console sessions', async () => {
    await put({ issuer: idp.issuer, clientId: 'gw-console', clientSecret: secret });
    const link = await gateway.app.inject({ method: 'GET', url: '/admin/v1/sso/portal-link', headers: adminHeaders });
    expect(link.json()).toEqual({
      configured: true,
      signInUrl: 'https://gw.example.com/admin/sso/start',
      redirectUri: 'https://gw.example.com/admin/sso/callback',
      issuer: idp.issuer,
      clientId: 'gw-console',
    });
    const removed = await gateway.app.inject({ method: 'DELETE', url: '/admin/v1/sso', headers: adminHeaders });
    expect(removed.json()).toEqual({ deleted: true, sessionsEnded: 0 });
    expect(await read()).toMatchObject({ configured: false });
    const probe = await gateway.app.inject({ method: 'GET', url: '/admin/auth' });
    expect(probe.json()).toMatchObject({ ssoConfigured: false, signInUrl: null, session: null });
    const start = await gateway.app.inject({ method: 'GET', url: '/admin/sso/start' });
    expect(start.statusCode).toBe(404);
    expect(start.json()).toMatchObject({ error: { code: 'sso_not_configured' } });
  });

  it('gates reads with sso:read and writes with sso:write, which no admin key can hold', async () => {
    const reader = await mintAdminKey(gateway.app, { caps: ['config:read'] });
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/sso', headers: bearer(reader.key) })).statusCode,
    ).toBe(200);
    const write = await put({ issuer: idp.issuer, clientId: 'x', clientSecret: secret }, bearer(reader.key));
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ error: { code: 'insufficient_scope', required_scope: 'sso:write' } });
    const minting = await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/admin-keys',
      headers: adminHeaders,
      payload: { scopes: ['sso:write'] },
    });
    expect(minting.statusCode).toBe(400);
  });
});

describe('the identity-provider configuration without private upstreams', () => {
  it('refuses an issuer on a private address before fetching anything (the SSRF guard)', async () => {
    const idp = await startIdentityProvider();
    const gateway = await startTestGateway({ env: { GW_ALLOW_PRIVATE_UPSTREAMS: 'false' } });
    try {
      for (const issuer of [idp.issuer, 'https://169.254.169.254', 'https://[::1]']) {
        const refused = await gateway.app.inject({
          method: 'PUT',
          url: '/admin/v1/sso',
          headers: adminHeaders,
          payload: { issuer, clientId: 'gw-console', clientSecret: secret },
        });
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({ error: { code: 'idp_config_invalid' } });
      }
      expect(idp.discoveryFetches).toBe(0);
      const { rows } = await gateway.deps.db.query('SELECT 1 FROM gw_idp_config');
      expect(rows).toHaveLength(0);
    } finally {
      await gateway.close();
      await idp.close();
    }
  });
});

import { parse, type PlistValue } from 'plist';
import { asDict, nameBasedUuid } from './plist-support.js';
import { describe, expect, it } from 'vitest';
import { headersHelperPaths } from '../src/policies/desktop-bootstrap.js';
import { mintAdminKey } from './admin-support.js';
import {
  adminHeaders,
  adminToken,
  bearer,
  gatewayPerTest,
  mintClientKey,
  mintServiceKey,
  revokeKey,
  startTestGateway,
} from './helpers.js';

// The desktop assistant's bootstrap (GET /connect/claude-desktop/bootstrap) and the macOS trust profile that pins it
// (GET /admin/claude-desktop-policy/mobileconfig and its v1 twin), parsed back with a plist library.

const settings = {
  inferenceModels: [{ name: 'claude-sonnet-4-5' }],
  managedMcpServers: {
    github: {
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${GITHUB_PAT}' },
    },
  },
  chatTabEnabled: true,
  coworkEgressAllowedHosts: ['api.github.com'],
};
const bootstrap = '/connect/claude-desktop/bootstrap';
const profileLegacy = '/admin/claude-desktop-policy/mobileconfig';
const profileV1 = '/admin/v1/policies/claude-desktop/mobileconfig';

describe('the desktop bootstrap and trust profile', () => {
  const gateway = gatewayPerTest();
  const enable = async (enabled = true) => {
    const saved = await gateway.app.inject({
      method: 'PUT',
      url: '/admin/v1/policies/claude-desktop',
      headers: adminHeaders,
      payload: { enabled, settings },
    });
    expect(saved.statusCode).toBe(200);
  };

  it('answers 404 from the bootstrap and 409 for the profile while the policy is disabled', async () => {
    const before = await gateway.app.inject({ method: 'GET', url: bootstrap });
    expect(before.statusCode).toBe(404);
    expect(before.json()).toEqual({
      status: 'failure',
      code: 'desktop_policy_disabled',
      message: expect.stringContaining('not enabled'),
    });
    const legacy = await gateway.app.inject({ method: 'GET', url: profileLegacy, headers: adminHeaders });
    expect(legacy.statusCode).toBe(409);
    expect(legacy.json()).toEqual({
      error: { code: 'desktop_policy_disabled', message: expect.stringContaining('enable it') },
    });
    const v1 = await gateway.app.inject({
      method: 'GET',
      url: profileV1,
      headers: { ...adminHeaders, 'x-request-id': 'profile-off' },
    });
    expect(v1.json()).toEqual({
      error: { code: 'desktop_policy_disabled', message: expect.any(String), request_id: 'profile-off' },
    });

    await enable(false);
    expect((await gateway.app.inject({ method: 'GET', url: bootstrap })).statusCode).toBe(404);
    await enable();
    expect((await gateway.app.inject({ method: 'GET', url: bootstrap })).statusCode).toBe(200);
    await enable(false);
    expect((await gateway.app.inject({ method: 'GET', url: bootstrap })).statusCode).toBe(404);
  });

  it('serves each operating system its helper path with the secret-free policy, keyless', async () => {
    await enable();
    const macos = await gateway.app.inject({ method: 'GET', url: bootstrap, headers: { host: 'gw.example.com' } });
    expect(macos.statusCode).toBe(200);
    expect(macos.headers['cache-control']).toBe('no-store');
    expect(macos.json()).toEqual({
      os: 'macos',
      revision: 1,
      gateway: { baseUrl: 'http://gw.example.com' },
      credentials: { mode: 'headers-helper', helperPath: headersHelperPaths.macos, header: 'x-gw-api-key' },
      settings,
      caller: null,
    });
    for (const os of ['windows', 'linux'] as const) {
      const answer = (await gateway.app.inject({ method: 'GET', url: `${bootstrap}?os=${os}` })).json();
      expect(answer.os).toBe(os);
      expect(answer.credentials.helperPath).toBe(headersHelperPaths[os]);
    }
    expect(new Set(Object.values(headersHelperPaths)).size).toBe(3);
    const unknown = await gateway.app.inject({ method: 'GET', url: `${bootstrap}?os=beos` });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ status: 'failure', code: 'invalid_request' });
  });

  it('verifies a presented key: attribution when valid, 401 when forged or revoked, 403 for a service key', async () => {
    await enable();
    const minted = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'platform' });
    const known = await gateway.app.inject({ method: 'GET', url: bootstrap, headers: bearer(minted.key) });
    expect(known.json().caller).toEqual({ user: 'ada@example.com', team: 'platform' });
    const viaHelperHeader = await gateway.app.inject({
      method: 'GET',
      url: bootstrap,
      headers: { 'x-gw-api-key': minted.key },
    });
    expect(viaHelperHeader.json().caller).toEqual({ user: 'ada@example.com', team: 'platform' });

    const forged = await gateway.app.inject({
      method: 'GET',
      url: bootstrap,
      headers: bearer(`${minted.key.slice(0, -4)}AAAA`),
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ status: 'failure', code: 'key_unknown', hint: expect.any(String) });
    const garbage = await gateway.app.inject({
      method: 'GET',
      url: bootstrap,
      headers: { authorization: 'Bearer not-a-key' },
    });
    expect(garbage.statusCode).toBe(401);

    await revokeKey(gateway.app, minted.record.id);
    const revoked = await gateway.app.inject({ method: 'GET', url: bootstrap, headers: bearer(minted.key) });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().code).toBe('key_revoked');

    const service = await mintServiceKey(gateway.app);
    const refused = await gateway.app.inject({ method: 'GET', url: bootstrap, headers: bearer(service.key) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('service_key_not_allowed');
  });

  it('throttles an address that keeps presenting bad keys, as the key chain does', async () => {
    await enable();
    const forged = { authorization: `Bearer ark_${'Z'.repeat(43)}` };
    const answers = [];
    for (let attempt = 0; attempt < 31; attempt += 1)
      answers.push((await gateway.app.inject({ method: 'GET', url: bootstrap, headers: forged })).statusCode);
    expect(answers.slice(0, 30).every((status) => status === 401)).toBe(true);
    const throttled = await gateway.app.inject({ method: 'GET', url: bootstrap, headers: forged });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBe('60');
    expect(throttled.json()).toMatchObject({ status: 'failure', code: 'auth_failures_throttled' });
    // Only failures count: a keyless fetch from the same address is still served.
    expect((await gateway.app.inject({ method: 'GET', url: bootstrap })).statusCode).toBe(200);
  });

  it('downloads a valid configuration profile that pins the bootstrap and helper, embeds no key, and is stable', async () => {
    await enable();
    const minted = await mintClientKey(gateway.app);
    const response = await gateway.app.inject({
      method: 'GET',
      url: profileLegacy,
      headers: { ...adminHeaders, host: 'gw.example.com' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-apple-aspen-config');
    expect(response.headers['content-disposition']).toBe('attachment; filename="gw-claude-desktop.mobileconfig"');
    expect(response.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    for (const secret of [adminToken, minted.key, 'ark_', 'GITHUB_PAT']) expect(response.body).not.toContain(secret);

    const profile = asDict(parse(response.body));
    expect(profile).toMatchObject({
      PayloadType: 'Configuration',
      PayloadVersion: 1,
      PayloadScope: 'System',
      PayloadDisplayName: expect.any(String),
      PayloadOrganization: 'gw',
    });
    expect(profile.PayloadIdentifier).toMatch(/^dev\.gw\.[0-9a-f]{16}\.claude-desktop$/);
    expect(profile.PayloadUUID).toMatch(nameBasedUuid);
    const content = profile.PayloadContent;
    expect(Array.isArray(content) && content.length).toBe(1);
    const payload = asDict((content as PlistValue[])[0]);
    expect(payload).toMatchObject({
      PayloadType: 'com.anthropic.claudefordesktop',
      PayloadIdentifier: `${profile.PayloadIdentifier as string}.settings`,
      PayloadVersion: 1,
      PayloadDisplayName: expect.any(String),
      PayloadEnabled: true,
      gatewayBaseUrl: 'http://gw.example.com',
      bootstrapUrl: 'http://gw.example.com/connect/claude-desktop/bootstrap?os=macos',
      bootstrapHeadersHelper: headersHelperPaths.macos,
    });
    expect(payload.PayloadUUID).toMatch(nameBasedUuid);
    expect(payload.PayloadUUID).not.toBe(profile.PayloadUUID);

    // The same deployment downloads the same identifiers from either surface: an MDM replaces, never stacks.
    const again = await gateway.app.inject({
      method: 'GET',
      url: profileV1,
      headers: { ...adminHeaders, host: 'gw.example.com' },
    });
    expect(again.statusCode).toBe(200);
    const second = asDict(parse(again.body));
    expect(second.PayloadUUID).toBe(profile.PayloadUUID);
    expect(asDict((second.PayloadContent as PlistValue[])[0]).PayloadUUID).toBe(payload.PayloadUUID);
  });

  it('pins GW_PUBLIC_URL and derives its identifiers from GW_DEPLOYMENT_ID', async () => {
    const identifiers = async (env: Record<string, string>) => {
      const other = await startTestGateway({ env });
      try {
        await other.app.inject({
          method: 'PUT',
          url: '/admin/v1/policies/claude-desktop',
          headers: adminHeaders,
          payload: { enabled: true, settings },
        });
        const profile = asDict(
          parse((await other.app.inject({ method: 'GET', url: profileV1, headers: adminHeaders })).body),
        );
        const boot = (await other.app.inject({ method: 'GET', url: bootstrap })).json();
        return {
          uuid: profile.PayloadUUID,
          bootstrapUrl: asDict((profile.PayloadContent as PlistValue[])[0]).bootstrapUrl,
          baseUrl: boot.gateway.baseUrl,
        };
      } finally {
        await other.close();
      }
    };
    const first = await identifiers({ GW_PUBLIC_URL: 'https://gw.acme.example/', GW_DEPLOYMENT_ID: 'dep_acme_prod' });
    expect(first.bootstrapUrl).toBe('https://gw.acme.example/connect/claude-desktop/bootstrap?os=macos');
    expect(first.baseUrl).toBe('https://gw.acme.example');
    const moved = await identifiers({
      GW_PUBLIC_URL: 'https://gateway.acme.example',
      GW_DEPLOYMENT_ID: 'dep_acme_prod',
    });
    expect(moved.uuid).toBe(first.uuid);
    const another = await identifiers({
      GW_PUBLIC_URL: 'https://gw.acme.example',
      GW_DEPLOYMENT_ID: 'dep_acme_staging',
    });
    expect(another.uuid).not.toBe(first.uuid);
  });

  it('gates the profile by config:read and policies:read, and documents both routes', async () => {
    await enable();
    const reader = await mintAdminKey(gateway.app, { scopes: ['policies:read'] });
    expect((await gateway.app.inject({ method: 'GET', url: profileV1, headers: bearer(reader.key) })).statusCode).toBe(
      200,
    );
    const other = await mintAdminKey(gateway.app, { scopes: ['keys:read'] });
    const refused = await gateway.app.inject({ method: 'GET', url: profileV1, headers: bearer(other.key) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'insufficient_scope', required_scope: 'policies:read' });

    const document = (await gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.paths[bootstrap].get.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'os', in: 'query' })]),
    );
    expect(Object.keys(document.paths[bootstrap].get.responses)).toEqual(expect.arrayContaining(['200', '401', '404']));
    expect(document.paths[profileV1].get['x-required-scope']).toBe('policies:read');
    expect(document.paths[profileLegacy].get['x-required-capability']).toBe('config:read');
  });
});

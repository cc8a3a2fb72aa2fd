import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolePrincipal } from '../src/admin/principal.js';
import { sessionHeaders, startAdminGateway } from './admin-support.js';
import { closedPort, evidenceEnv, evidenceToken, startEvidence } from './evidence-fixture.js';
import { adminHeaders, startTestGateway, type TestGateway } from './helpers.js';

describe('the endpoint evidence service re-served by the gateway', () => {
  let evidence: Awaited<ReturnType<typeof startEvidence>>;
  let gateway: TestGateway;
  const get = (url: string) => gateway.app.inject({ method: 'GET', url, headers: adminHeaders });

  beforeAll(async () => {
    evidence = await startEvidence();
    gateway = await startTestGateway({
      env: evidenceEnv(evidence),
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await evidence?.close();
  });

  it('binds the deployment’s organization and reports whether the service runs the bundled policy pack', async () => {
    const org = await get('/admin/v1/fleet/org');
    expect(org.statusCode).toBe(200);
    expect(org.json()).toMatchObject({
      id: 'default',
      name: 'gw deployment',
      packSync: { status: 'in-sync', bundled: expect.any(String), applied: expect.any(String) },
    });
    const legacy = await get('/admin/endpoint/org');
    expect(legacy.statusCode).toBe(200);
    expect(legacy.headers.deprecation).toBeDefined();
  });

  it('mints a connector, shows the hosts it reports, relays the service’s own 404 and 409, and summarises the fleet', async () => {
    const minted = await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/fleet/evidence-connectors/jamf/rotate',
      headers: adminHeaders,
    });
    expect(minted.statusCode).toBe(200);
    expect(minted.headers['cache-control']).toBe('no-store');
    const { token } = minted.json();
    expect(token).toMatch(/^aer_/);
    const reported = await fetch(`${evidence.url}/api/v1/evidence/report`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        device: { id: 'serial-1', hostname: 'ada-mbp', platform: 'darwin' },
        results: [{ policyName: 'macos-firewall', response: 'fail' }],
      }),
    });
    expect(reported.status).toBe(202);

    const hosts = (await get('/admin/v1/fleet/hosts')).json().hosts;
    expect(hosts).toMatchObject([{ hostname: 'ada-mbp', source: 'jamf' }]);
    expect((await get(`/admin/endpoint/hosts/${hosts[0].id}`)).json().results).toEqual(
      expect.arrayContaining([expect.objectContaining({ policyName: 'macos-firewall', response: 'fail' })]),
    );
    expect((await get('/admin/v1/fleet/policies/macos-firewall/hosts')).json().hosts).toMatchObject([
      { hostname: 'ada-mbp', response: 'fail' },
    ]);

    const remediate = await gateway.app.inject({
      method: 'POST',
      url: `/admin/v1/fleet/hosts/${hosts[0].id}/remediate`,
      headers: adminHeaders,
    });
    expect(remediate.statusCode).toBe(409);
    expect(remediate.json().error).toMatchObject({ code: 'monitor_only' });
    // Path parameters are identifiers: a dot segment never reaches the evidence service's paths.
    for (const url of [
      '/admin/endpoint/hosts/%2E%2E',
      '/admin/v1/fleet/hosts/..%2F..',
      '/admin/v1/fleet/evidence-connectors/%2E%2E',
    ]) {
      // 400 from the parameter's pattern, or 404 once the HTTP layer folded the dot segment into another path.
      expect([400, 404], url).toContain((await get(url)).statusCode);
    }
    const missing = await get('/admin/v1/fleet/hosts/host_missing');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');

    const status = await get('/admin/v1/fleet/status');
    expect(status.json()).toMatchObject({
      configured: true,
      reachable: true,
      rollup: {
        hosts: { total: 1, reporting: 1 },
        compliance: { failing: 1 },
        failingPolicies: { 'macos-firewall': 1 },
      },
    });

    const disabled = await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/fleet/policies/macos-firewall',
      headers: adminHeaders,
      payload: { enabled: false },
    });
    expect(disabled.json()).toEqual({ name: 'macos-firewall', enabled: false });
    expect(
      (
        await gateway.app.inject({
          method: 'DELETE',
          url: `/admin/v1/fleet/hosts/${hosts[0].id}`,
          headers: adminHeaders,
        })
      ).json(),
    ).toEqual({ ok: true });
    // The summary is cached for 15 seconds.
    expect((await get('/admin/v1/fleet/status')).json().rollup.hosts.total).toBe(1);
    gateway.clock.advance(15_000);
    expect((await get('/admin/v1/fleet/status')).json().rollup.hosts.total).toBe(0);
  });
});

describe('endpoint control when it is not configured, misconfigured or down', () => {
  it('answers 404 on /admin/endpoint/* and {configured:false} on the status without GW_ENDPOINT_CONTROL_URL', async () => {
    const gateway = await startTestGateway();
    try {
      const hosts = await gateway.app.inject({ method: 'GET', url: '/admin/endpoint/hosts', headers: adminHeaders });
      expect(hosts.statusCode).toBe(404);
      expect(
        (await gateway.app.inject({ method: 'GET', url: '/admin/v1/fleet/hosts', headers: adminHeaders })).statusCode,
      ).toBe(404);
      expect(
        (
          await gateway.app.inject({ method: 'GET', url: '/admin/endpoint-fleet/status', headers: adminHeaders })
        ).json(),
      ).toEqual({ configured: false });
    } finally {
      await gateway.close();
    }
  });

  it('names a refused admin bearer, and reports an unreachable service without failing the status', async () => {
    const evidence = await startEvidence();
    const wrong = await startTestGateway({
      env: { GW_ENDPOINT_CONTROL_URL: evidence.url, GW_ENDPOINT_CONTROL_ADMIN_TOKEN: 'not-the-evidence-admin-token' },
    });
    const down = await startTestGateway({
      env: {
        GW_ENDPOINT_CONTROL_URL: `http://127.0.0.1:${await closedPort()}`,
        GW_ENDPOINT_CONTROL_ADMIN_TOKEN: evidenceToken,
      },
    });
    try {
      const refused = await wrong.app.inject({ method: 'GET', url: '/admin/v1/fleet/hosts', headers: adminHeaders });
      expect(refused.statusCode).toBe(502);
      expect(refused.json().error.code).toBe('endpoint_control_refused');
      const unreachable = await down.app.inject({ method: 'GET', url: '/admin/v1/fleet/hosts', headers: adminHeaders });
      expect(unreachable.statusCode).toBe(502);
      expect(unreachable.json().error.code).toBe('endpoint_control_unreachable');
      expect(
        (await down.app.inject({ method: 'GET', url: '/admin/v1/fleet/status', headers: adminHeaders })).json(),
      ).toEqual({ configured: true, reachable: false });
    } finally {
      await wrong.close();
      await down.close();
      await evidence.close();
    }
  });
});

describe('endpoint control in fleet mode', () => {
  it('gives each tenant an organization of its own: one tenant never sees another’s hosts', async () => {
    const evidence = await startEvidence();
    const sessions = {
      acme: rolePrincipal('owner', { email: 'owner@acme.example', tenant: 'acme' }),
      beta: rolePrincipal('owner', { email: 'owner@beta.example', tenant: 'beta' }),
    };
    const gateway = await startAdminGateway({
      sessions,
      env: {
        GW_MULTI_TENANT: 'true',
        ...evidenceEnv(evidence),
      },
    });
    try {
      const call = (method: 'GET' | 'POST', url: string, tenant: string) =>
        gateway.app.inject({ method, url, headers: sessionHeaders(tenant) });
      const { token } = (await call('POST', '/admin/v1/fleet/evidence-connectors/intune/rotate', 'acme')).json();
      await fetch(`${evidence.url}/api/v1/evidence/report`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          device: { id: 'acme-laptop', hostname: 'acme-1' },
          results: [{ policyName: 'windows-firewall', response: 'pass' }],
        }),
      });
      expect((await call('GET', '/admin/v1/fleet/org', 'acme')).json()).toMatchObject({
        id: 'tenant-acme',
        name: 'acme',
      });
      expect((await call('GET', '/admin/v1/fleet/hosts', 'acme')).json().hosts).toMatchObject([{ hostname: 'acme-1' }]);
      expect((await call('GET', '/admin/v1/fleet/hosts', 'beta')).json().hosts).toEqual([]);
      expect((await call('GET', '/admin/v1/fleet/evidence-connectors', 'beta')).json().connectors).toEqual([]);
    } finally {
      await gateway.close();
      await evidence.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { adminHeaders, evidencePerTest, provisionOrg } from './support.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const dayMs = 86_400_000;

describe('the evidence admin plane and the fleet rollup', () => {
  const service = evidencePerTest();

  it('counts compliant, failing and unknown hosts, and drops hosts silent for seven days from scoring', async () => {
    const { app, clock } = service();
    const { orgId, token } = await provisionOrg(app, 'intune');
    const report = (id: string, results: Array<[string, string]>) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/evidence/report',
        headers: bearer(token),
        payload: {
          device: { id, platform: 'windows' },
          results: results.map(([policyName, response]) => ({ policyName, response })),
        },
      });
    // Only the two Windows checks matter here; the others are disabled for this organization.
    for (const name of [
      'macos-disk-encryption',
      'macos-screen-lock',
      'macos-firewall',
      'macos-system-integrity-protection',
      'linux-disk-encryption',
      'linux-screen-lock',
    ]) {
      await app.inject({
        method: 'POST',
        url: `/admin/orgs/${orgId}/policies/${name}`,
        headers: adminHeaders,
        payload: { enabled: false },
      });
    }
    await report('old', [
      ['windows-disk-encryption', 'fail'],
      ['windows-firewall', 'fail'],
    ]);
    clock.advance(8 * dayMs);
    await report('good', [
      ['windows-disk-encryption', 'pass'],
      ['windows-firewall', 'pass'],
    ]);
    await report('bad', [
      ['windows-disk-encryption', 'fail'],
      ['windows-firewall', 'pass'],
    ]);
    await report('partial', [['windows-disk-encryption', 'pass']]);

    const rollup = await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/rollup`, headers: adminHeaders });
    expect(rollup.statusCode).toBe(200);
    expect(rollup.json()).toEqual({
      packVersion: expect.any(String),
      hosts: { total: 4, reporting: 3, stale: 1 },
      compliance: { compliant: 1, failing: 1, unknown: 1 },
      failingPolicies: { 'windows-disk-encryption': 1 },
    });
  });

  it('guards the admin plane with its bearer, and deleting an organization (a bodiless DELETE declared as JSON) removes everything it held', async () => {
    const { app, store } = service();
    expect((await app.inject({ method: 'GET', url: '/admin/orgs' })).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'GET', url: '/admin/orgs', headers: bearer('not-the-admin-token-at-all') }))
        .statusCode,
    ).toBe(401);
    const { orgId, token } = await provisionOrg(app);
    const connectors = await app.inject({
      method: 'GET',
      url: `/admin/orgs/${orgId}/evidence-connectors`,
      headers: adminHeaders,
    });
    expect(connectors.json()).toEqual({
      connectors: [{ source: 'jamf', createdAt: expect.any(String) }],
      sources: expect.arrayContaining(['jamf', 'intune', 'custom']),
    });
    expect(JSON.stringify(connectors.json())).not.toContain(token);
    await app.inject({
      method: 'POST',
      url: '/api/v1/evidence/report',
      headers: bearer(token),
      payload: { device: { id: 'd1' }, results: [{ policyName: 'macos-disk-encryption', response: 'pass' }] },
    });

    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `/admin/orgs/${orgId}`,
          headers: { ...adminHeaders, 'content-type': 'application/json' },
          payload: '',
        })
      ).statusCode,
    ).toBe(204);
    for (const table of ['ev_credentials', 'ev_hosts', 'ev_policy_results', 'ev_policy_disabled']) {
      expect((await store.db.query(`SELECT 1 FROM ${table}`)).rows, table).toHaveLength(0);
    }
    expect((await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}`, headers: adminHeaders })).statusCode).toBe(
      404,
    );
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/v1/evidence/report',
          headers: bearer(token),
          payload: { device: { id: 'd1' }, results: [{ policyName: 'macos-disk-encryption', response: 'pass' }] },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('refuses unknown sources, policies and malformed organizations', async () => {
    const { app } = service();
    const { orgId } = await provisionOrg(app);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/admin/orgs/${orgId}/evidence-connectors/myspace/rotate`,
          headers: adminHeaders,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/admin/orgs/${orgId}/policies/nope`,
          headers: adminHeaders,
          payload: { enabled: false },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ method: 'POST', url: '/admin/orgs', headers: adminHeaders, payload: { name: '' } }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/admin/orgs',
          headers: adminHeaders,
          payload: { name: 'x', gatewayUrl: 'ftp://x' },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/admin/orgs/org_missing/evidence-connectors/jamf/rotate',
          headers: adminHeaders,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('binds an organization under a chosen id idempotently, lists hosts by check, and refuses remediation on monitor-only hosts', async () => {
    const { app } = service();
    const put = (payload: Record<string, unknown>) =>
      app.inject({ method: 'PUT', url: '/admin/orgs/tenant-acme', headers: adminHeaders, payload });
    const created = await put({ name: 'Acme', gatewayUrl: 'https://gw.acme.example' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ id: 'tenant-acme', name: 'Acme', gatewayHostname: 'gw.acme.example' });
    const updated = await put({ name: 'Acme Corp' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ id: 'tenant-acme', name: 'Acme Corp', gatewayHostname: 'gw.acme.example' });
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: '/admin/orgs/has%20space',
          headers: adminHeaders,
          payload: { name: 'x' },
        })
      ).statusCode,
    ).toBe(400);

    const minted = (
      await app.inject({
        method: 'POST',
        url: '/admin/orgs/tenant-acme/evidence-connectors/custom/rotate',
        headers: adminHeaders,
      })
    ).json();
    for (const [id, response] of [
      ['a', 'pass'],
      ['b', 'fail'],
      ['c', 'unknown'],
    ]) {
      await app.inject({
        method: 'POST',
        url: '/api/v1/evidence/report',
        headers: bearer(minted.token),
        payload: { device: { id, hostname: `host-${id}` }, results: [{ policyName: 'macos-firewall', response }] },
      });
    }
    const byPolicy = (
      await app.inject({
        method: 'GET',
        url: '/admin/orgs/tenant-acme/policies/macos-firewall/hosts',
        headers: adminHeaders,
      })
    ).json();
    expect(
      byPolicy.hosts.map((host: { hostname: string; response: string }) => [host.hostname, host.response]),
    ).toEqual([
      ['host-b', 'fail'],
      ['host-c', 'unknown'],
      ['host-a', 'pass'],
    ]);
    const remediate = await app.inject({
      method: 'POST',
      url: `/admin/orgs/tenant-acme/hosts/${byPolicy.hosts[0].id}/remediate`,
      headers: adminHeaders,
    });
    expect(remediate.statusCode).toBe(409);
    expect(remediate.json().error.code).toBe('monitor_only');
  });

  it('reports liveness and readiness, and publishes its OpenAPI document', async () => {
    const { app } = service();
    expect((await app.inject({ method: 'GET', url: '/livez' })).json()).toEqual({ status: 'live' });
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    const openapi = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/evidence/report',
        '/api/v1/evidence/policies',
        '/admin/orgs/{orgId}/rollup',
        '/readyz',
      ]),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { packVersion, policyPack } from '../src/catalog/policy-pack.js';
import { adminHeaders, evidencePerTest, evidenceStores, provisionOrg } from './support.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(evidenceStores)('evidence reports from a customer-managed connector on %s', (_name, open) => {
  const service = evidencePerTest(open);
  const report = (token: string, payload: unknown) =>
    service().app.inject({
      method: 'POST',
      url: '/api/v1/evidence/report',
      headers: bearer(token),
      payload: payload as Record<string, unknown>,
    });

  it('serves the catalog of enabled checks and accepts a snapshot, leaving out no enabled policy', async () => {
    const { app } = service();
    const { orgId, token } = await provisionOrg(app);
    const catalog = await app.inject({ method: 'GET', url: '/api/v1/evidence/policies', headers: bearer(token) });
    expect(catalog.statusCode).toBe(200);
    expect(catalog.json().packVersion).toBe(packVersion);
    expect(catalog.json().policies).toHaveLength(policyPack.length);
    expect(catalog.json().policies.find((policy: { name: string }) => policy.name === 'macos-screen-lock').query).toBe(
      'SELECT 1 FROM screenlock WHERE enabled = 1 AND grace_period <= 15 * 60;',
    );

    const accepted = await report(token, {
      device: { id: 'C02XK1ABJG5H', hostname: 'ada-mbp', platform: 'darwin' },
      results: [
        { policyName: 'macos-disk-encryption', response: 'pass' },
        { policyName: 'macos-firewall', response: 'fail' },
      ],
    });
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json()).toEqual({
      accepted: 2,
      source: 'jamf',
      receivedAt: new Date(service().clock.now()).toISOString(),
    });

    const hosts = (await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/hosts`, headers: adminHeaders })).json()
      .hosts;
    expect(hosts).toEqual([
      {
        id: expect.stringMatching(/^host_/),
        hostname: 'ada-mbp',
        platform: 'darwin',
        source: 'jamf',
        lastEvidenceAt: expect.any(String),
        createdAt: expect.any(String),
      },
    ]);
    const detail = (
      await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/hosts/${hosts[0].id}`, headers: adminHeaders })
    ).json();
    // The darwin checks apply to a darwin device: those not reported are unknown; other platforms' checks do not apply.
    expect(detail.results.map((result: { policyName: string }) => result.policyName).sort()).toEqual(
      policyPack
        .filter((policy) => policy.platform === 'darwin')
        .map((policy) => policy.name)
        .sort(),
    );
    expect(
      detail.results.find((result: { policyName: string }) => result.policyName === 'macos-firewall').response,
    ).toBe('fail');
    expect(
      detail.results.find((result: { policyName: string }) => result.policyName === 'macos-screen-lock').response,
    ).toBe('unknown');
    // The device id is kept only as a source-qualified hash.
    const stored = await service().store.db.query<{ device_hash: string }>('SELECT device_hash FROM ev_hosts');
    expect(stored.rows[0].device_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored.rows)).not.toContain('C02XK1ABJG5H');

    // The next report replaces the snapshot of the same device.
    await report(token, {
      device: { id: 'C02XK1ABJG5H' },
      results: [{ policyName: 'macos-firewall', response: 'pass' }],
    });
    const again = (await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/hosts`, headers: adminHeaders })).json()
      .hosts;
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ hostname: 'ada-mbp', platform: 'darwin' });
  });

  it('refuses a whole report naming an unknown, disabled or repeated policy, or carrying anything but results', async () => {
    const { app } = service();
    const { orgId, token } = await provisionOrg(app);
    await app.inject({
      method: 'POST',
      url: `/admin/orgs/${orgId}/policies/macos-firewall`,
      headers: adminHeaders,
      payload: { enabled: false },
    });
    const cases: Array<[unknown, string]> = [
      [
        {
          device: { id: 'd1' },
          results: [
            { policyName: 'macos-disk-encryption', response: 'pass' },
            { policyName: 'no-such-check', response: 'pass' },
          ],
        },
        'invalid_report',
      ],
      [{ device: { id: 'd1' }, results: [{ policyName: 'macos-firewall', response: 'pass' }] }, 'invalid_report'],
      [
        {
          device: { id: 'd1' },
          results: [
            { policyName: 'macos-disk-encryption', response: 'pass' },
            { policyName: 'macos-disk-encryption', response: 'fail' },
          ],
        },
        'invalid_report',
      ],
      [
        {
          device: { id: 'd1', serialNumber: 'X' },
          results: [{ policyName: 'macos-disk-encryption', response: 'pass' }],
        },
        'invalid_request',
      ],
      [
        {
          device: { id: 'd1' },
          results: [{ policyName: 'macos-disk-encryption', response: 'pass', output: 'FileVault is On.' }],
        },
        'invalid_request',
      ],
      [
        { device: { id: 'has space' }, results: [{ policyName: 'macos-disk-encryption', response: 'pass' }] },
        'invalid_request',
      ],
      [{ device: { id: 'd1' }, results: [] }, 'invalid_request'],
      [
        {
          device: { id: 'd1', hostname: 'h'.repeat(65) },
          results: [{ policyName: 'macos-disk-encryption', response: 'pass' }],
        },
        'invalid_request',
      ],
    ];
    for (const [payload, code] of cases) {
      const response = await report(token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe(code);
    }
    expect(
      (await app.inject({ method: 'GET', url: `/admin/orgs/${orgId}/hosts`, headers: adminHeaders })).json().hosts,
    ).toEqual([]);
    const catalog = (
      await app.inject({ method: 'GET', url: '/api/v1/evidence/policies', headers: bearer(token) })
    ).json();
    expect(catalog.policies.map((policy: { name: string }) => policy.name)).not.toContain('macos-firewall');
  });

  it('answers 413 above 64 KiB, and 401 to a missing, unknown, rotated or revoked bearer', async () => {
    const { app } = service();
    const { orgId, token } = await provisionOrg(app);
    const large = await report(token, {
      device: { id: 'd1', hostname: 'x' },
      results: [{ policyName: 'macos-disk-encryption', response: 'pass' }],
      padding: 'x'.repeat(70 * 1024),
    });
    expect(large.statusCode).toBe(413);
    expect(large.json().error.code).toBe('body_too_large');

    const valid = { device: { id: 'd1' }, results: [{ policyName: 'macos-disk-encryption', response: 'pass' }] };
    const rotated = (
      await app.inject({
        method: 'POST',
        url: `/admin/orgs/${orgId}/evidence-connectors/jamf/rotate`,
        headers: adminHeaders,
      })
    ).json();
    for (const presented of [null, 'aer_unknown', token, adminHeaders.authorization.slice(7)]) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/evidence/report',
        headers: presented ? bearer(presented) : {},
        payload: valid,
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: { code: 'unauthorized', message: 'A valid bearer is required.' } });
    }
    expect((await report(rotated.token, valid)).statusCode).toBe(202);
    expect(
      (
        await app.inject({
          method: 'DELETE',
          url: `/admin/orgs/${orgId}/evidence-connectors/jamf`,
          headers: adminHeaders,
        })
      ).statusCode,
    ).toBe(204);
    expect((await report(rotated.token, valid)).statusCode).toBe(401);
  });
});

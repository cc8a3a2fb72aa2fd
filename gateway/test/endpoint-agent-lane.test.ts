import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintAdminKey } from './admin-support.js';
import { evidenceEnv, evidenceToken, startEvidence, type TestEvidence } from './evidence-fixture.js';
import { adminHeaders, bearer, mintClientKey, mintServiceKey, startTestGateway, type TestGateway } from './helpers.js';

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('the built-in agent lane through the gateway (the contract /connect/endpoint-enrollment)', () => {
  let evidence: TestEvidence;
  let gateway: TestGateway;
  const admin = (
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = adminHeaders,
  ) =>
    gateway.app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const enrollment = (key: string) =>
    gateway.app.inject({ method: 'POST', url: '/connect/endpoint-enrollment', headers: bearer(key) });

  beforeAll(async () => {
    evidence = await startEvidence({ contentKey: '7a'.repeat(32) });
    gateway = await startTestGateway({
      env: evidenceEnv(evidence),
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await evidence?.close();
  });

  it('hands a developer the enroll secret an administrator rotated, and the secret enrolls a real agent at the service', async () => {
    const { key } = await mintClientKey(gateway.app, { user: 'ada@example.com', team: 'platform' });
    const before = await enrollment(key);
    expect(before.statusCode).toBe(409);
    expect(before.json()).toMatchObject({ status: 'failure', code: 'enroll_secret_unavailable' });
    expect((await admin('GET', '/admin/v1/fleet/enroll-secret')).json()).toEqual({
      hasSecret: false,
      createdAt: null,
      deliverable: false,
    });

    const rotated = await admin('POST', '/admin/v1/fleet/enroll-secret/rotate');
    expect(rotated.statusCode).toBe(200);
    expect(rotated.headers['cache-control']).toBe('no-store');
    const { enrollSecret } = rotated.json();
    expect((await admin('GET', '/admin/endpoint/enroll-secret')).json()).toEqual({
      hasSecret: true,
      createdAt: expect.any(String),
      deliverable: true,
    });

    const fetched = await enrollment(key);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['cache-control']).toBe('no-store');
    expect(fetched.json()).toEqual({ status: 'ok', endpointControlUrl: 'http://localhost:80', enrollSecret });
    const enrolled = await post(`${evidence.url}/api/fleet/orbit/enroll`, {
      enroll_secret: fetched.json().enrollSecret,
      hardware_uuid: 'ada-mac-uuid',
      platform: 'darwin',
      hostname: 'ada-mbp',
    });
    expect(enrolled.status).toBe(200);

    const audit = await admin('GET', '/admin/v1/audit/events?category=fleet');
    expect(audit.json().data.map((event: { action: string }) => event.action)).toEqual(
      expect.arrayContaining(['endpoint.enrollment.fetched']),
    );
    const stored = JSON.stringify([
      audit.json(),
      (await gateway.deps.db.query('SELECT * FROM gw_endpoint_enroll_secrets')).rows,
      (await gateway.deps.db.query('SELECT details, target FROM gw_audit_events')).rows,
      gateway.logs,
    ]);
    expect(stored).not.toContain(enrollSecret);

    // Rotated, then revoked, at the service directly: the gateway's copy is stale and is not handed out.
    const serviceAdmin = { authorization: `Bearer ${evidenceToken}` };
    await evidence.app.inject({
      method: 'POST',
      url: '/admin/orgs/default/enroll-secret/rotate',
      headers: serviceAdmin,
    });
    expect((await admin('GET', '/admin/v1/fleet/enroll-secret')).json()).toMatchObject({
      hasSecret: true,
      deliverable: false,
    });
    expect((await enrollment(key)).json()).toMatchObject({ code: 'enroll_secret_unavailable' });
    await evidence.app.inject({ method: 'DELETE', url: '/admin/orgs/default/enroll-secret', headers: serviceAdmin });
    expect((await enrollment(key)).statusCode).toBe(409);
    await admin('POST', '/admin/v1/fleet/enroll-secret/rotate');
    expect((await enrollment(key)).statusCode).toBe(200);

    const service = await mintServiceKey(gateway.app, { name: 'ci-bot', team: 'platform' });
    expect((await enrollment(service.key)).json()).toMatchObject({ code: 'service_key_not_allowed' });
    expect((await gateway.app.inject({ method: 'POST', url: '/connect/endpoint-enrollment' })).statusCode).toBe(401);
  });

  it('queues a script on a failing agent host, lists the audit, and shows its output only to the content-read capability', async () => {
    const { enrollSecret } = (await admin('POST', '/admin/v1/fleet/enroll-secret/rotate')).json();
    const orbitKey = (
      (await (
        await post(`${evidence.url}/api/fleet/orbit/enroll`, {
          enroll_secret: enrollSecret,
          hardware_uuid: 'bob-mac-uuid',
          platform: 'darwin',
          hostname: 'bob-mbp',
        })
      ).json()) as { orbit_node_key: string }
    ).orbit_node_key;
    const nodeKey = (
      (await (
        await post(`${evidence.url}/api/v1/osquery/enroll`, {
          enroll_secret: enrollSecret,
          host_identifier: 'bob-mac-uuid',
          host_details: { os_version: { platform: 'darwin' } },
        })
      ).json()) as { node_key: string }
    ).node_key;
    await post(`${evidence.url}/api/v1/osquery/distributed/write`, {
      node_key: nodeKey,
      queries: { 'gw_policy_macos-firewall': [] },
    });
    const host = (await admin('GET', '/admin/v1/fleet/hosts'))
      .json()
      .hosts.find((entry: { hostname: string }) => entry.hostname === 'bob-mbp');

    const scripts = (await admin('GET', '/admin/v1/fleet/scripts')).json().scripts;
    expect(scripts.map((script: { name: string }) => script.name)).toContain('macos-enable-firewall.sh');
    const queued = await admin('POST', `/admin/v1/fleet/hosts/${host.id}/remediate`, { policyName: 'macos-firewall' });
    expect(queued.statusCode).toBe(200);
    const executionId = queued.json().remediations[0].executionId as string;
    expect(
      (
        await admin('POST', `/admin/v1/fleet/hosts/${host.id}/remediate`, { policyName: 'macos-disk-encryption' })
      ).json().error,
    ).toMatchObject({ code: 'no_remediation' });

    await post(`${evidence.url}/api/fleet/orbit/scripts/request`, {
      orbit_node_key: orbitKey,
      execution_id: executionId,
    });
    await post(`${evidence.url}/api/fleet/orbit/scripts/result`, {
      orbit_node_key: orbitKey,
      execution_id: executionId,
      output: 'Firewall is enabled. (State = 1)',
      runtime: 1,
      exit_code: 0,
    });

    const listed = (await admin('GET', `/admin/v1/fleet/remediations?hostId=${host.id}`)).json().remediations;
    expect(listed).toEqual([
      expect.objectContaining({ executionId, status: 'ran', exitCode: 0, outputRetained: true }),
    ]);
    expect(JSON.stringify(listed)).not.toContain('Firewall is enabled');
    expect((await admin('GET', `/admin/v1/fleet/remediations/${executionId}`)).json()).not.toHaveProperty('output');

    const reader = await mintAdminKey(gateway.app, { scopes: ['fleet:read'] });
    expect(
      (await admin('GET', `/admin/v1/fleet/remediations/${executionId}`, undefined, bearer(reader.key))).statusCode,
    ).toBe(200);
    expect(
      (await admin('GET', `/admin/v1/fleet/remediations/${executionId}/output`, undefined, bearer(reader.key)))
        .statusCode,
    ).toBe(403);
    const withOutput = await admin('GET', `/admin/v1/fleet/remediations/${executionId}/output`);
    expect(withOutput.json()).toMatchObject({ output: 'Firewall is enabled. (State = 1)', outputState: 'retained' });
    expect(
      (
        await admin(
          'POST',
          '/admin/v1/fleet/policies/macos-firewall/automation',
          { autoRemediate: true },
          bearer(reader.key),
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await admin('POST', '/admin/v1/fleet/policies/macos-firewall/automation', { autoRemediate: true })).json(),
    ).toEqual({ name: 'macos-firewall', autoRemediate: true });
    expect((await admin('GET', '/admin/v1/fleet/policies')).json().policies).toContainEqual(
      expect.objectContaining({ name: 'macos-firewall', autoRemediate: true }),
    );
    const audited = (await admin('GET', '/admin/v1/audit/events?category=fleet'))
      .json()
      .data.map((event: { action: string }) => event.action);
    expect(audited.some((action: string) => action.includes('remediations.output'))).toBe(true);
  });
});

describe('/connect/endpoint-enrollment without an evidence service', () => {
  it('answers 404 endpoint_control_not_configured', async () => {
    const gateway = await startTestGateway();
    try {
      const { key } = await mintClientKey(gateway.app);
      const answer = await gateway.app.inject({
        method: 'POST',
        url: '/connect/endpoint-enrollment',
        headers: bearer(key),
      });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ status: 'failure', code: 'endpoint_control_not_configured' });
    } finally {
      await gateway.close();
    }
  });
});

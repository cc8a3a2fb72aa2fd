import { parse, type PlistValue } from 'plist';
import { asDict, nameBasedUuid, type PlistDict } from './plist-support.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolePrincipal } from '../src/admin/principal.js';
import { mintAdminKey, sessionHeaders, startAdminGateway } from './admin-support.js';
import { evidenceEnv, startEvidence, type TestEvidence } from './evidence-fixture.js';
import { adminHeaders, adminToken, startTestGateway, type TestGateway } from './helpers.js';

const legacyPath = '/admin/endpoint-fleet/mdm-profile';
const v1Path = '/admin/v1/fleet/mdm-profile';

describe('the endpoint agent’s macOS enrollment profile', () => {
  let evidence: TestEvidence;
  let gateway: TestGateway;
  const mint = (url = v1Path, headers: Record<string, string> = adminHeaders) =>
    gateway.app.inject({ method: 'POST', url, headers: { ...headers, host: 'gw.example.com' } });

  beforeAll(async () => {
    evidence = await startEvidence();
    gateway = await startTestGateway({
      env: {
        ...evidenceEnv(evidence),
        GW_ENDPOINT_AGENT_URL: evidence.url,
      },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await evidence?.close();
  });

  it('answers 409 enroll_secret_unavailable until a secret was rotated through the gateway', async () => {
    const refused = await mint();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'enroll_secret_unavailable', request_id: expect.any(String) });
  });

  it('carries the live secret and the agent URL in a valid profile, re-downloads without rotating, and audits no secret', async () => {
    const rotated = await gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/fleet/enroll-secret/rotate',
      headers: adminHeaders,
    });
    const { enrollSecret, createdAt } = rotated.json();

    const response = await mint(legacyPath);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-apple-aspen-config');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-disposition']).toBe('attachment; filename="gw-endpoint-agent.mobileconfig"');
    expect(response.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(response.body).not.toContain(adminToken);

    const profile = asDict(parse(response.body));
    expect(profile).toEqual({
      PayloadType: 'Configuration',
      PayloadIdentifier: expect.stringMatching(/^dev\.gw\.[0-9a-f]{16}\.endpoint-agent$/),
      PayloadUUID: expect.stringMatching(nameBasedUuid),
      PayloadVersion: 1,
      PayloadDisplayName: expect.any(String),
      PayloadDescription: expect.stringContaining(evidence.url),
      PayloadOrganization: 'gw',
      PayloadScope: 'System',
      PayloadRemovalDisallowed: false,
      PayloadContent: [expect.any(Object)],
    });
    const payload = asDict((profile.PayloadContent as PlistValue[])[0]);
    expect(payload).toEqual({
      PayloadType: 'com.fleetdm.fleetd.config',
      PayloadIdentifier: `${profile.PayloadIdentifier as string}.config`,
      PayloadUUID: expect.stringMatching(nameBasedUuid),
      PayloadVersion: 1,
      PayloadDisplayName: expect.any(String),
      PayloadDescription: expect.any(String),
      PayloadEnabled: true,
      EnrollSecret: enrollSecret,
      FleetURL: evidence.url,
    });
    expect(payload.PayloadUUID).not.toBe(profile.PayloadUUID);

    // The secret the profile carries enrolls a real agent at the evidence service.
    const enrolled = await fetch(`${payload.FleetURL as string}/api/fleet/orbit/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        enroll_secret: payload.EnrollSecret,
        hardware_uuid: 'mdm-mac-uuid',
        platform: 'darwin',
        hostname: 'mdm-mac',
      }),
    });
    expect(enrolled.status).toBe(200);

    // A second download, on the v1 path, is the same profile: same identifiers, same secret, nothing rotated.
    const again = await mint(v1Path);
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(response.body);
    const status = await gateway.app.inject({
      method: 'GET',
      url: '/admin/v1/fleet/enroll-secret',
      headers: adminHeaders,
    });
    expect(status.json()).toEqual({ hasSecret: true, createdAt, deliverable: true });

    const audit = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/audit/events?category=fleet', headers: adminHeaders })
    ).json().data;
    const minted = audit.filter((event: { action: string }) => event.action === 'fleet.mdmProfile.download');
    // Two downloads, and the refusal before the secret existed (audited as a failure).
    expect(minted.map((event: { outcome: string }) => event.outcome).sort()).toEqual(['failure', 'success', 'success']);
    expect(minted.find((event: { outcome: string }) => event.outcome === 'success')).toMatchObject({
      target: 'mdm-profile',
      subject: null,
      status: 200,
    });
    const stored = JSON.stringify([
      audit,
      (await gateway.deps.db.query('SELECT * FROM gw_audit_events')).rows,
      gateway.logs,
    ]);
    expect(stored).not.toContain(enrollSecret);
  });

  it('asks for fleet:enroll on v1 and enrollment:manage on the legacy path', async () => {
    const reader = await mintAdminKey(gateway.app, { label: 'fleet-reader', scopes: ['fleet:read', 'fleet:write'] });
    const refused = await mint(v1Path, { authorization: `Bearer ${reader.key}` });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'insufficient_scope', required_scope: 'fleet:enroll' });
    expect(refused.body).not.toContain('EnrollSecret');

    const enroller = await mintAdminKey(gateway.app, { label: 'fleet-enroller', scopes: ['fleet:enroll'] });
    expect((await mint(v1Path, { authorization: `Bearer ${enroller.key}` })).statusCode).toBe(200);

    const observer = await mintAdminKey(gateway.app, { label: 'observer', caps: ['observability:read'] });
    const legacy = await mint(legacyPath, { authorization: `Bearer ${observer.key}` });
    expect(legacy.statusCode).toBe(403);
    expect(legacy.json().error.code).toBe('forbidden');
    expect((await mint(v1Path, {})).statusCode).toBe(401);
  });

  it('keeps its identifiers when the secret rotates, so an MDM replaces the installed profile', async () => {
    const before = asDict(parse((await mint()).body));
    await gateway.app.inject({ method: 'POST', url: '/admin/v1/fleet/enroll-secret/rotate', headers: adminHeaders });
    const after = asDict(parse((await mint()).body));
    expect(after.PayloadUUID).toBe(before.PayloadUUID);
    const secretOf = (profile: PlistDict) => asDict((profile.PayloadContent as PlistValue[])[0]).EnrollSecret;
    expect(secretOf(after)).not.toBe(secretOf(before));
  });
});

describe('the enrollment profile without an evidence service', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(async () => gateway?.close());

  it('answers 404 on both paths', async () => {
    for (const url of [legacyPath, v1Path]) {
      const response = await gateway.app.inject({ method: 'POST', url, headers: adminHeaders });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
  });
});

describe('the enrollment profile in fleet mode', () => {
  it("carries each tenant's own enroll secret under identifiers of its own", async () => {
    const evidence = await startEvidence();
    const gateway = await startAdminGateway({
      sessions: {
        acme: rolePrincipal('owner', { email: 'owner@acme.example', tenant: 'acme' }),
        beta: rolePrincipal('owner', { email: 'owner@beta.example', tenant: 'beta' }),
      },
      env: {
        GW_MULTI_TENANT: 'true',
        ...evidenceEnv(evidence),
        GW_ENDPOINT_AGENT_URL: evidence.url,
      },
    });
    try {
      const call = (url: string, tenant: string) =>
        gateway.app.inject({ method: 'POST', url, headers: { ...sessionHeaders(tenant), host: 'gw.example.com' } });
      const secrets = {
        acme: (await call('/admin/v1/fleet/enroll-secret/rotate', 'acme')).json().enrollSecret as string,
        beta: (await call('/admin/v1/fleet/enroll-secret/rotate', 'beta')).json().enrollSecret as string,
      };
      expect(secrets.acme).not.toBe(secrets.beta);
      const profiles = {
        acme: await call(v1Path, 'acme'),
        beta: await call(v1Path, 'beta'),
      };
      expect(profiles.acme.statusCode).toBe(200);
      expect(profiles.beta.statusCode).toBe(200);
      const acme = asDict(parse(profiles.acme.body));
      const beta = asDict(parse(profiles.beta.body));
      const secretOf = (profile: PlistDict) => asDict((profile.PayloadContent as PlistValue[])[0]).EnrollSecret;
      expect(secretOf(acme)).toBe(secrets.acme);
      expect(secretOf(beta)).toBe(secrets.beta);
      expect(acme.PayloadUUID).not.toBe(beta.PayloadUUID);
      expect(profiles.acme.body).not.toContain(secrets.beta);
    } finally {
      await gateway.close();
      await evidence.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPolicyPushSigner } from '@gw/testkit';
import { mintAdminKey } from './admin-support.js';
import { evidenceEnv, startEvidence, type TestEvidence } from './evidence-fixture.js';
import { adminHeaders, bearer, startTestGateway, type TestGateway } from './helpers.js';

const signer = createPolicyPushSigner();

describe('policy push through the gateway (/admin/v1/fleet/policy-push)', () => {
  let evidence: TestEvidence;
  let gateway: TestGateway;
  const admin = (
    method: 'GET' | 'POST' | 'PUT',
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

  beforeAll(async () => {
    evidence = await startEvidence({ deliveredCheckKeys: signer.trust });
    gateway = await startTestGateway({
      env: evidenceEnv(evidence),
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await evidence?.close();
  });

  it('delivers a signed check, shows it, refuses a tampered one and one naming a script, and audits as gw-policy-push', async () => {
    const delivered = await admin('POST', '/admin/v1/fleet/policy-push', { checks: [signer.sign(signer.check())] });
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json()).toMatchObject({
      enabled: true,
      checks: [{ id: 'vendor-macos-gatekeeper', revision: 1, enabled: true, verified: true, replaces: null }],
    });
    expect((await admin('GET', '/admin/v1/fleet/policy-push')).json().checks).toHaveLength(1);

    const good = signer.sign(signer.check({ revision: 2 }));
    const tampered = { ...good, payload: signer.sign(signer.check({ revision: 3, critical: false })).payload };
    const forged = await admin('POST', '/admin/v1/fleet/policy-push', { checks: [tampered] });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe('delivered_check_unverified');
    const script = await admin('POST', '/admin/v1/fleet/policy-push', {
      checks: [signer.sign(signer.check({ revision: 2, script: 'macos-enable-firewall.sh' }))],
    });
    expect(script.statusCode).toBe(400);
    expect(script.json().error.code).toBe('delivered_check_names_script');
    expect((await admin('GET', '/admin/v1/fleet/policy-push')).json().checks).toEqual([
      expect.objectContaining({ revision: 1 }),
    ]);

    const audit = (await admin('GET', '/admin/v1/audit/events?category=fleet')).json().data as Array<{
      actor: string;
      action: string;
      target: string | null;
    }>;
    expect(audit).toContainEqual(
      expect.objectContaining({
        actor: 'gw-policy-push',
        action: 'endpoint.policyPush.delivered',
        target: 'delivered-check:vendor-macos-gatekeeper',
      }),
    );
    expect(audit.filter((event) => event.actor === 'gw-policy-push')).toHaveLength(1);
  });

  it('lets only the provisioning capability switch the lane or a check; off withdraws and refuses', async () => {
    const reader = await mintAdminKey(gateway.app, { scopes: ['fleet:read'] });
    expect((await admin('GET', '/admin/v1/fleet/policy-push', undefined, bearer(reader.key))).statusCode).toBe(200);
    const refused = await admin('PUT', '/admin/v1/fleet/policy-push', { enabled: false }, bearer(reader.key));
    expect(refused.statusCode).toBe(403);
    expect((await admin('GET', '/admin/v1/fleet/policy-push')).json().enabled).toBe(true);

    const provisioner = await mintAdminKey(gateway.app, { scopes: ['fleet:write', 'fleet:read'] });
    const disabled = await admin(
      'POST',
      '/admin/v1/fleet/policy-push/vendor-macos-gatekeeper',
      { enabled: false },
      bearer(provisioner.key),
    );
    expect(disabled.json()).toEqual({ id: 'vendor-macos-gatekeeper', enabled: false });
    expect((await admin('GET', '/admin/v1/fleet/policy-push')).json().checks[0]).toMatchObject({ enabled: false });

    const off = await admin('PUT', '/admin/v1/fleet/policy-push', { enabled: false }, bearer(provisioner.key));
    expect(off.json()).toEqual({ enabled: false, withdrawn: 1 });
    const later = await admin('POST', '/admin/v1/fleet/policy-push', {
      checks: [signer.sign(signer.check({ revision: 5 }))],
    });
    expect(later.statusCode).toBe(409);
    expect(later.json().error.code).toBe('delivered_checks_off');
    expect((await admin('GET', '/admin/v1/fleet/policy-push')).json()).toEqual({ enabled: false, checks: [] });
  });
});

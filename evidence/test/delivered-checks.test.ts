import { generateKeyPairSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { signDeliveredCheck } from '@gw/platform';
import { agentPost, orgWithEnrollSecret } from './agent-wire.js';
import { adminHeaders, evidencePerTest, evidenceStores, provisionOrg } from './support.js';

/** The vendor's key for these tests only; the service trusts it through `deliveredCheckKeys`, never the pinned one. */
const vendor = generateKeyPairSync('ed25519');
const keyId = 'test-policy-push-1';
const trust = { [keyId]: vendor.publicKey.export({ format: 'jwk' }).x as string };
const sign = (payload: unknown) => signDeliveredCheck(payload, vendor.privateKey, keyId);
const check = (overrides: Record<string, unknown> = {}) => ({
  v: 1,
  id: 'vendor-macos-gatekeeper',
  revision: 1,
  name: 'macos-gatekeeper',
  platform: 'darwin',
  critical: false,
  mode: 'monitor',
  description: 'Gatekeeper allows only identified developers’ applications.',
  resolution: 'System Settings → Privacy & Security → App Store and identified developers.',
  query: 'SELECT 1 FROM gatekeeper WHERE assessments_enabled = 1;',
  issuedAt: '2026-11-26T12:00:00.000Z',
  ...overrides,
});
/** A delivered check that replaces the image's firewall check (which has a remediation script). */
const firewallReplacement = (overrides: Record<string, unknown> = {}) =>
  check({
    id: 'vendor-macos-firewall',
    name: 'macos-firewall',
    description: 'The application firewall is on and in stealth mode.',
    query: 'SELECT 1 FROM alf WHERE global_state >= 1 AND stealth_enabled = 1;',
    ...overrides,
  });

const admin = (app: FastifyInstance, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: adminHeaders,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
const deliver = (app: FastifyInstance, orgId: string, ...checks: unknown[]) =>
  admin(app, 'POST', `/admin/orgs/${orgId}/delivered-checks`, { checks });
const auditOf = async (app: FastifyInstance, orgId: string) =>
  (await admin(app, 'GET', `/admin/orgs/${orgId}/delivered-checks/audit`)).json().events as Array<
    Record<string, unknown>
  >;

/** A darwin agent host whose firewall check just failed; answers the queries it was served. */
async function failingMac(app: FastifyInstance) {
  const { orgId, enrollSecret } = await orgWithEnrollSecret(app);
  await agentPost(app, '/api/fleet/orbit/enroll', {
    enroll_secret: enrollSecret,
    hardware_uuid: 'mac-uuid-1',
    platform: 'darwin',
    hostname: 'mac',
  });
  const nodeKey = (
    await agentPost(app, '/api/v1/osquery/enroll', {
      enroll_secret: enrollSecret,
      host_identifier: 'mac-uuid-1',
      host_details: { os_version: { platform: 'darwin' } },
    })
  ).json().node_key as string;
  const served = (await agentPost(app, '/api/v1/osquery/distributed/read', { node_key: nodeKey })).json()
    .queries as Record<string, string>;
  await agentPost(app, '/api/v1/osquery/distributed/write', {
    node_key: nodeKey,
    queries: { 'gw_policy_macos-firewall': [], 'gw_policy_macos-screen-lock': [{ '1': '1' }] },
  });
  const hostId = (await admin(app, 'GET', `/admin/orgs/${orgId}/hosts`)).json().hosts[0].id as string;
  return { orgId, hostId, nodeKey, served };
}

describe.each(evidenceStores)('vendor-delivered checks on %s', (_name, open) => {
  const service = evidencePerTest(open, { deliveredCheckKeys: trust });

  it('accepts a check signed with the trusted key, lists it for review and serves it in the catalog', async () => {
    const { app } = service();
    const { orgId, token } = await provisionOrg(app);
    const delivered = await deliver(app, orgId, sign(check()));
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json()).toEqual({
      enabled: true,
      checks: [
        {
          id: 'vendor-macos-gatekeeper',
          revision: 1,
          name: 'macos-gatekeeper',
          platform: 'darwin',
          description: check().description,
          query: check().query,
          enabled: true,
          verified: true,
          replaces: null,
          deliveredAt: expect.any(String),
        },
      ],
    });
    // Customer-managed reporters see it in their catalog, and may report on it.
    const catalog = await app.inject({
      method: 'GET',
      url: '/api/v1/evidence/policies',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(catalog.json().policies).toContainEqual(
      expect.objectContaining({ name: 'macos-gatekeeper', critical: false, query: check().query }),
    );
    expect(
      catalog.json().policies.find((policy: { name: string }) => policy.name === 'macos-gatekeeper'),
    ).not.toHaveProperty('script');
    expect(await auditOf(app, orgId)).toEqual([
      expect.objectContaining({
        actor: 'gw-policy-push',
        action: 'delivered',
        checkId: 'vendor-macos-gatekeeper',
        revision: 1,
        outcome: 'success',
      }),
    ]);
  });

  it('refuses a tampered signature, an unknown key, a script named or carried, a write, a critical or remediating check; nothing stored', async () => {
    const { app } = service();
    const { orgId } = await orgWithEnrollSecret(app);
    const good = sign(check());
    const tampered = { ...good, payload: sign(check({ query: 'SELECT 2 FROM gatekeeper;' })).payload };
    const refusals: Array<[unknown, string]> = [
      [tampered, 'delivered_check_unverified'],
      [{ ...good, keyId: 'gw-policy-push-2026-1' }, 'delivered_check_unverified'],
      [signDeliveredCheck(check(), generateKeyPairSync('ed25519').privateKey, keyId), 'delivered_check_unverified'],
      [sign(check({ script: 'macos-enable-firewall.sh' })), 'delivered_check_names_script'],
      [sign(check({ remediation: { contents: 'spctl --master-enable' } })), 'delivered_check_names_script'],
      [sign(check({ resolution: 'Run macos-enable-firewall.sh from the console.' })), 'delivered_check_names_script'],
      [sign(check({ description: 'Runs fix-gatekeeper.ps1 when it fails.' })), 'delivered_check_names_script'],
      [sign(check({ query: "ATTACH DATABASE '/tmp/x' AS x; SELECT 1;" })), 'delivered_check_not_read_only'],
      [sign(check({ query: 'DELETE FROM gatekeeper' })), 'delivered_check_not_read_only'],
      [sign(check({ critical: true })), 'delivered_check_invalid'],
      [sign(check({ mode: 'remediate' })), 'delivered_check_invalid'],
    ];
    for (const [envelope, code] of refusals) {
      const answer = await deliver(app, orgId, good, envelope);
      expect({ code: answer.json().error?.code, status: answer.statusCode }).toEqual({
        code,
        status: 400,
      });
    }
    expect((await admin(app, 'GET', `/admin/orgs/${orgId}/delivered-checks`)).json().checks).toEqual([]);
    const audit = await auditOf(app, orgId);
    expect(audit).toHaveLength(refusals.length);
    expect(audit.every((event) => event.actor === 'gw-policy-push' && event.outcome === 'failure')).toBe(true);
    expect(JSON.stringify(audit)).not.toContain('SELECT');
  });

  it('suspends the remediation of the image check a delivered check replaces, and gives it back when disabled', async () => {
    const { app } = service();
    const { orgId, hostId, nodeKey } = await failingMac(app);
    const delivered = await deliver(app, orgId, sign(firewallReplacement()));
    expect(delivered.json().checks[0]).toMatchObject({ name: 'macos-firewall', replaces: 'macos-firewall' });

    const listed = (await admin(app, 'GET', `/admin/orgs/${orgId}/policies`)).json().policies as Array<{
      name: string;
      remediationSuspended: boolean;
    }>;
    expect(listed.filter((policy) => policy.remediationSuspended).map((policy) => policy.name)).toEqual([
      'macos-firewall',
    ]);

    const remediate = (policyName?: string) =>
      admin(app, 'POST', `/admin/orgs/${orgId}/hosts/${hostId}/remediate`, policyName ? { policyName } : undefined);
    const named = await remediate('macos-firewall');
    expect(named.statusCode).toBe(409);
    expect(named.json().error.code).toBe('remediation_suspended');
    expect((await remediate()).json().error.code).toBe('nothing_to_remediate');
    expect(
      (await admin(app, 'POST', `/admin/orgs/${orgId}/policies/macos-firewall/automation`, { autoRemediate: true }))
        .statusCode,
    ).toBe(200);
    // The check still fails under its name (now the delivered query); automatic remediation queues nothing.
    const failing = await agentPost(app, '/api/v1/osquery/distributed/write', {
      node_key: nodeKey,
      queries: { 'gw_policy_macos-firewall': [] },
    });
    expect(failing.statusCode).toBe(200);
    expect((await admin(app, 'GET', `/admin/orgs/${orgId}/remediations`)).json().remediations).toEqual([]);

    const disabled = await admin(app, 'POST', `/admin/orgs/${orgId}/delivered-checks/vendor-macos-firewall`, {
      enabled: false,
    });
    expect(disabled.json()).toEqual({ id: 'vendor-macos-firewall', enabled: false });
    const restored = await remediate('macos-firewall');
    expect(restored.statusCode).toBe(202);
    expect(restored.json().remediations[0]).toMatchObject({ policyName: 'macos-firewall', trigger: 'admin' });
    expect((await admin(app, 'GET', `/admin/orgs/${orgId}/delivered-checks`)).json().checks[0]).toMatchObject({
      enabled: false,
      replaces: 'macos-firewall',
    });
  });

  it('switching the lane off withdraws every delivered check and refuses the next delivery, audited', async () => {
    const { app } = service();
    const { orgId, hostId } = await failingMac(app);
    await deliver(app, orgId, sign(check()), sign(firewallReplacement()));
    const off = await admin(app, 'PUT', `/admin/orgs/${orgId}/delivered-checks/lane`, { enabled: false });
    expect(off.json()).toEqual({ enabled: false, withdrawn: 2 });
    expect((await admin(app, 'GET', `/admin/orgs/${orgId}/delivered-checks`)).json()).toEqual({
      enabled: false,
      checks: [],
    });
    const refused = await deliver(app, orgId, sign(check({ revision: 2 })));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('delivered_checks_off');
    // The image check is back, with its remediation.
    const remediated = await admin(app, 'POST', `/admin/orgs/${orgId}/hosts/${hostId}/remediate`, {
      policyName: 'macos-firewall',
    });
    expect(remediated.statusCode).toBe(202);
    const actions = (await auditOf(app, orgId)).map((event) => `${String(event.actor)}:${String(event.action)}`);
    expect(actions).toEqual([
      'gw-policy-push:refused',
      'admin:withdrawn',
      'admin:withdrawn',
      'admin:lane_off',
      'gw-policy-push:delivered',
      'gw-policy-push:delivered',
    ]);
  });

  it('keeps the later revision: an older one is stale, the same one is harmless, a newer one supersedes', async () => {
    const { app } = service();
    const { orgId } = await orgWithEnrollSecret(app);
    expect((await deliver(app, orgId, sign(check({ revision: 3 })))).statusCode).toBe(200);
    const stale = await deliver(app, orgId, sign(check({ revision: 2 })));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('delivered_check_stale');
    expect((await deliver(app, orgId, sign(check({ revision: 3 })))).statusCode).toBe(200);
    const newer = await deliver(app, orgId, sign(check({ revision: 4, query: 'SELECT 1 FROM gatekeeper;' })));
    expect(newer.json().checks).toEqual([expect.objectContaining({ revision: 4, query: 'SELECT 1 FROM gatekeeper;' })]);
  });

  it('never serves a delivered check whose stored envelope no longer verifies (a row edited in the store)', async () => {
    const { app, store } = service();
    const { orgId, token } = await provisionOrg(app);
    await deliver(app, orgId, sign(firewallReplacement()));
    const forged = Buffer.from(
      JSON.stringify(firewallReplacement({ query: 'SELECT 1 FROM alf WHERE global_state >= 0;' })),
    ).toString('base64url');
    await store.db.query('UPDATE ev_delivered_checks SET payload = $1', [forged]);
    expect((await admin(app, 'GET', `/admin/orgs/${orgId}/delivered-checks`)).json().checks).toEqual([
      expect.objectContaining({ id: 'vendor-macos-firewall', verified: false, query: null, replaces: null }),
    ]);
    const catalog = await app.inject({
      method: 'GET',
      url: '/api/v1/evidence/policies',
      headers: { authorization: `Bearer ${token}` },
    });
    // The image's own firewall check is served, with its script; the forged query is not.
    expect(catalog.json().policies).toContainEqual(
      expect.objectContaining({ name: 'macos-firewall', query: 'SELECT 1 FROM alf WHERE global_state >= 1;' }),
    );
    expect(JSON.stringify(catalog.json())).not.toContain('global_state >= 0');
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, sha256Hex } from '@gw/platform';
import {
  startBillingSimulator,
  type BillingSimulatorHandle,
  createIsolatedPgDb,
  createMemoryPgliteDb,
  testDbUrl,
  type TestDb,
} from '@gw/testkit';
import { billingEnv } from './billing-fixture.js';
import { BillingClient } from '../src/billing/billing-client.js';
import { adminHeaders, startTestGateway, type TestGateway } from './helpers.js';
import { configureScim, groupSchema, oktaUser, patch, scim } from './scim-support.js';

const hashOf = (address: string) => sha256Hex(address.toLowerCase());

describe('SCIM reflection to billing (PUT /v1/enrollment-identities)', () => {
  let clock: ManualClock;
  let billing: BillingSimulatorHandle;
  let store: TestDb;
  let gateway: TestGateway;
  const start = () => startTestGateway({ db: store.db, clock, env: billingEnv(billing) });
  const reflect = async () => {
    const reflector = gateway.deps.entitlement.identities;
    if (!reflector) throw new Error('a metered gateway reflects identities');
    await reflector.runOnce();
  };

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
    billing = await startBillingSimulator({ now: () => clock.now() });
    store = await createIsolatedPgDb(testDbUrl(process.env));
    gateway = await start();
    await configureScim(gateway.app, { adminGroup: 'gw-admins' });
  });
  afterEach(async () => {
    await gateway?.close();
    await billing?.close();
    await store?.dispose();
  });

  it('reports a provisioned user as hashes, and each later change as a higher revision of the same identity', async () => {
    const created = await scim(gateway.app, 'POST', '/Users', oktaUser('Ada@Example.com', { userType: 'Employee' }));
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    await reflect();
    expect(billing.enrollmentIdentities.get(hashOf('ada@example.com'))).toEqual({
      source: 'scim',
      type: 'human',
      identityHash: hashOf('ada@example.com'),
      externalIdHash: sha256Hex('00u1abcd'),
      status: 'active',
      role: 'member',
      revision: 1,
      changedAt: new Date(clock.now()).toISOString(),
    });

    await scim(gateway.app, 'PATCH', `/Users/${id}`, patch({ op: 'replace', path: 'active', value: false }));
    await reflect();
    expect(billing.enrollmentIdentities.get(hashOf('ada@example.com'))).toMatchObject({
      status: 'inactive',
      revision: 2,
    });

    const group = await scim(gateway.app, 'POST', '/Groups', {
      schemas: [groupSchema],
      displayName: 'gw-admins',
      members: [{ value: id }],
    });
    expect(group.statusCode).toBe(201);
    await reflect();
    expect(billing.enrollmentIdentities.get(hashOf('ada@example.com'))).toMatchObject({ role: 'admin', revision: 3 });

    expect((await scim(gateway.app, 'DELETE', `/Users/${id}`)).statusCode).toBe(204);
    await reflect();
    expect(billing.enrollmentIdentities.get(hashOf('ada@example.com'))).toMatchObject({
      status: 'removed',
      role: 'member',
      revision: 4,
    });
    // Nothing is sent again once billing holds the latest revision.
    const batches = billing.enrollmentBatches.length;
    await reflect();
    expect(billing.enrollmentBatches).toHaveLength(batches);
  });

  it('reports a rename as the new address and the old one removed; a machine account as a service identity', async () => {
    const created = await scim(
      gateway.app,
      'POST',
      '/Users',
      oktaUser('build@example.com', { userType: 'Service Account' }),
    );
    await reflect();
    expect(billing.enrollmentIdentities.get(hashOf('build@example.com'))).toMatchObject({ type: 'service' });
    const renamed = await scim(gateway.app, 'PUT', `/Users/${created.json().id as string}`, {
      ...oktaUser('ci@example.com', { userType: 'Service Account' }),
    });
    expect(renamed.statusCode).toBe(200);
    await reflect();
    expect(billing.enrollmentIdentities.get(hashOf('build@example.com'))).toMatchObject({ status: 'removed' });
    expect(billing.enrollmentIdentities.get(hashOf('ci@example.com'))).toMatchObject({
      status: 'active',
      type: 'service',
    });
  });

  it('keeps a change billing refused, across a restart, and delivers it once billing answers again', async () => {
    billing.failNext(1, 503, '/v1/enrollment-identities');
    await scim(gateway.app, 'POST', '/Users', oktaUser('grace@example.com'));
    await reflect();
    expect(billing.requests.at(-1)).toEqual({ method: 'PUT', path: '/v1/enrollment-identities', status: 503 });
    expect(billing.enrollmentIdentities.size).toBe(0);

    // Retried only after the backoff, and by whichever gateway runs next on the same store.
    await gateway.close();
    gateway = await start();
    await reflect();
    expect(billing.enrollmentIdentities.size).toBe(0);
    const { rows } = await store.db.query<{ attempts: number; last_error: string }>(
      'SELECT attempts, last_error FROM gw_enrollment_identity_outbox',
    );
    expect(rows).toEqual([{ attempts: 1, last_error: 'service_unavailable' }]);
    // An administrator sees the change held back on /admin/health (the failure was the other replica's).
    const held = await gateway.app.inject({ method: 'GET', url: '/admin/v1/settings/health', headers: adminHeaders });
    expect(held.json().identityReflection).toMatchObject({ configured: true, waiting: 1, failing: 1, lastError: null });
    expect(held.json().identityReflection.oldestWaitingSince).toEqual(expect.any(String));

    clock.advance(30_000);
    await reflect();
    expect(billing.enrollmentIdentities.get(hashOf('grace@example.com'))).toMatchObject({ status: 'active' });
    const drained = await gateway.app.inject({ method: 'GET', url: '/admin/health', headers: adminHeaders });
    expect(drained.json().identityReflection).toEqual({
      configured: true,
      waiting: 0,
      failing: 0,
      oldestWaitingSince: null,
      lastError: null,
    });
    expect(billing.requests.filter((request) => request.path === '/v1/enrollment-identities')).toEqual([
      { method: 'PUT', path: '/v1/enrollment-identities', status: 503 },
      { method: 'PUT', path: '/v1/enrollment-identities', status: 200 },
    ]);
  });

  it('sends a roster of 250 users in batches of at most 100, each identity once', async () => {
    for (let index = 0; index < 250; index += 1) {
      const response = await scim(gateway.app, 'POST', '/Users', oktaUser(`dev${index}@example.com`));
      expect(response.statusCode).toBe(201);
    }
    await reflect();
    expect(billing.enrollmentBatches.map((batch) => batch.length)).toEqual([100, 100, 50]);
    expect(billing.enrollmentIdentities.size).toBe(250);
  });

  it('two replicas on one store share the outbox without sending an identity twice', async () => {
    for (let index = 0; index < 150; index += 1)
      await scim(gateway.app, 'POST', '/Users', oktaUser(`dev${index}@example.com`));
    const replica = await start();
    try {
      await Promise.all([reflect(), replica.deps.entitlement.identities?.runOnce()]);
    } finally {
      await replica.close();
    }
    const sent = billing.enrollmentBatches.flat().map((identity) => identity.identityHash);
    expect(sent).toHaveLength(150);
    expect(new Set(sent).size).toBe(150);
  });

  it('a GDPR erase forgets the address and tells billing the identity is removed, by its hash alone', async () => {
    await scim(gateway.app, 'POST', '/Users', oktaUser('ada@example.com'));
    await reflect();
    const erased = await gateway.app.inject({
      method: 'DELETE',
      url: `/admin/gdpr/users/${encodeURIComponent('ada@example.com')}/data`,
      headers: adminHeaders,
    });
    expect(erased.statusCode).toBe(200);
    const { rows } = await store.db.query('SELECT address FROM gw_enrollment_identity_outbox');
    expect(rows).toEqual([{ address: null }]);
    await reflect();
    expect(billing.enrollmentIdentities.get(hashOf('ada@example.com'))).toMatchObject({
      status: 'removed',
      externalIdHash: null,
      revision: 2,
    });
  });

  it('never sends an address, a name, a password, the SCIM bearer or the external id in the clear', async () => {
    const user = oktaUser('ada@example.com', { externalId: 'okta-00u1abcd' });
    await scim(gateway.app, 'POST', '/Users', user);
    await reflect();
    const sent = JSON.stringify(billing.enrollmentBatches);
    expect(billing.enrollmentBatches).toHaveLength(1);
    for (const secret of ['ada@example.com', 'Ada', 'Lovelace', 'never-stored-1', 'okta-00u1abcd', 'scim-bearer'])
      expect(sent).not.toContain(secret);
  });
});

describe('SCIM reflection on the embedded store (PGlite)', () => {
  it('reports a user, keeps a refused report and sends it after the backoff', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
    const billing = await startBillingSimulator({ now: () => clock.now() });
    const store = await createMemoryPgliteDb();
    const gateway = await startTestGateway({ db: store.db, clock, env: billingEnv(billing) });
    try {
      await configureScim(gateway.app);
      billing.failNext(1, 503, '/v1/enrollment-identities');
      await scim(gateway.app, 'POST', '/Users', oktaUser('ada@example.com'));
      await gateway.deps.entitlement.identities?.runOnce();
      expect(billing.enrollmentIdentities.size).toBe(0);
      clock.advance(29_000);
      await gateway.deps.entitlement.identities?.runOnce();
      expect(billing.enrollmentIdentities.size).toBe(0);
      clock.advance(1_000);
      await gateway.deps.entitlement.identities?.runOnce();
      expect(billing.enrollmentIdentities.get(hashOf('ada@example.com'))).toMatchObject({ status: 'active' });
    } finally {
      await gateway.close();
      await billing.close();
      await store.dispose();
    }
  });
});

describe('fleet tenant lookup (GET /v1/tenant-context)', () => {
  let billing: BillingSimulatorHandle;
  afterEach(async () => billing?.close());

  it('resolves a client-key hash to its tenant in fleet mode, null for an unknown one, refuses outside fleet mode', async () => {
    billing = await startBillingSimulator({ fleetMode: true });
    const client = new BillingClient({ baseUrl: billing.url, deploymentToken: billing.deploymentToken });
    const keyHash = sha256Hex('ark_the-key-itself');
    billing.setTenantContext(keyHash, { tenantId: 'acme', tenantName: 'Acme Corp', status: 'active' });
    expect(await client.tenantContext(keyHash)).toEqual({
      tenantId: 'acme',
      tenantName: 'Acme Corp',
      deploymentId: billing.deploymentId,
      status: 'active',
    });
    expect(await client.tenantContext(sha256Hex('ark_unknown'))).toBeNull();
    await expect(
      new BillingClient({ baseUrl: billing.url, deploymentToken: 'adt_wrong' }).tenantContext(keyHash),
    ).rejects.toMatchObject({ code: 'invalid_deployment_token', httpStatus: 401 });

    await billing.close();
    billing = await startBillingSimulator();
    const single = new BillingClient({ baseUrl: billing.url, deploymentToken: billing.deploymentToken });
    await expect(single.tenantContext(keyHash)).rejects.toMatchObject({ code: 'fleet_mode_disabled', httpStatus: 404 });
  });
});

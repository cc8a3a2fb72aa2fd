import { afterEach, describe, expect, it } from 'vitest';
import { startBillingSimulator, type BillingSimulatorHandle } from './billing-simulator.js';

let simulator: BillingSimulatorHandle;
afterEach(async () => {
  await simulator.close();
});

const hash = (digit: string) => digit.repeat(64);
const identity = (revision: number, status = 'active') => ({
  source: 'scim',
  type: 'human',
  identityHash: hash('a'),
  externalIdHash: null,
  status,
  role: 'member',
  revision,
  changedAt: '2026-11-26T12:00:00.000Z',
});
const put = (body: unknown, token = simulator.deploymentToken) =>
  fetch(`${simulator.url}/v1/enrollment-identities`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('PUT /v1/enrollment-identities', () => {
  it('records the highest revision of each identity; a replay or an older revision is counted stale', async () => {
    simulator = await startBillingSimulator();
    const deploymentId = simulator.deploymentId;
    const first = await put({ deploymentId, identities: [identity(2)] });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ recorded: 1, stale: 0 });
    expect(await (await put({ deploymentId, identities: [identity(1, 'removed'), identity(2)] })).json()).toMatchObject(
      { recorded: 0, stale: 2 },
    );
    expect(simulator.enrollmentIdentities.get(hash('a'))).toMatchObject({ revision: 2, status: 'active' });
  });

  it('refuses another deployment, a wrong bearer, a source or type off the allowlist, a plain address and a batch over 100', async () => {
    simulator = await startBillingSimulator();
    const deploymentId = simulator.deploymentId;
    expect((await put({ deploymentId: 'dep_other', identities: [identity(1)] })).status).toBe(403);
    expect((await put({ deploymentId, identities: [identity(1)] }, 'adt_wrong_token_000000000000000')).status).toBe(
      401,
    );
    for (const bad of [
      { ...identity(1), source: 'csv-upload' },
      { ...identity(1), type: 'contractor' },
      { ...identity(1), identityHash: 'ada@example.com' },
      { ...identity(1), email: 'ada@example.com' },
    ]) {
      const answer = await put({ deploymentId, identities: [bad] });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: 'invalid_request' } });
    }
    const many = Array.from({ length: 101 }, (_, index) => ({
      ...identity(1),
      identityHash: index.toString(16).padStart(64, '0'),
    }));
    expect((await put({ deploymentId, identities: many })).status).toBe(400);
    expect(simulator.enrollmentIdentities.size).toBe(0);
  });
});

describe('GET /v1/tenant-context', () => {
  const lookup = (query: string, token = simulator.deploymentToken) =>
    fetch(`${simulator.url}/v1/tenant-context?${query}`, { headers: { authorization: `Bearer ${token}` } });

  it('answers a known key hash in fleet mode, 404 for an unknown one, 400 for anything but a hash', async () => {
    simulator = await startBillingSimulator({ fleetMode: true });
    simulator.setTenantContext(hash('b'), { tenantId: 'acme', tenantName: 'Acme', status: 'suspended' });
    expect(await (await lookup(`clientKeyHash=${hash('b')}`)).json()).toEqual({
      tenantId: 'acme',
      tenantName: 'Acme',
      status: 'suspended',
      deploymentId: simulator.deploymentId,
    });
    expect((await lookup(`clientKeyHash=${hash('c')}`)).status).toBe(404);
    expect((await lookup('clientKeyHash=ark_a_raw_key')).status).toBe(400);
    expect((await lookup(`clientKeyHash=${hash('b')}`, 'adt_wrong_token_000000000000000')).status).toBe(401);
  });
});

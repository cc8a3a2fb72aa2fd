import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@gw/platform';
import { createMemoryPgliteDb, type TestDb } from '@gw/testkit';
import { StoredLeaseReader } from '../src/lease/stored-lease-reader.js';
import { deploymentId, entitlementLeaseDdl, leaseIssuer } from './support/stored-lease.js';
import { auth, chatRequest, numberedLines, testApp, type TestApp } from './support/test-app.js';

let store: TestDb;
beforeAll(async () => {
  store = await createMemoryPgliteDb();
});
afterAll(async () => {
  await store.dispose();
});

/** An app gated by a lease read from the same shared store its stash uses, as `main.ts` wires it. */
async function leasedApp(
  issuer: ReturnType<typeof leaseIssuer>,
  clock: ManualClock,
): Promise<TestApp & { reader: StoredLeaseReader }> {
  const reader = new StoredLeaseReader({
    db: store.db,
    deploymentId,
    trust: issuer.trust,
    clock,
    logger: { info: () => undefined, warn: () => undefined },
  });
  await reader.start();
  // The tests refresh by hand: no timer outlives them.
  reader.stop();
  return { ...(await testApp({ db: store.db, clock, leaseReader: reader })), reader };
}

function optimize(harness: TestApp, toolOutput: string) {
  return harness.app.inject({
    method: 'POST',
    url: '/v1/optimize',
    headers: auth,
    payload: { endpoint: '/v1/chat/completions', request: chatRequest(toolOutput), metadata: { user: 'ada' } },
  });
}

async function stashed(harness: TestApp): Promise<string> {
  const response = await optimize(harness, numberedLines(40, 'kept'));
  expect(response.statusCode).toBe(200);
  const handle = /ctx_[A-Za-z0-9_-]+/.exec(JSON.stringify(response.json().request))?.[0];
  if (!handle) throw new Error('no handle in the optimized request');
  return handle;
}

function retrieve(harness: TestApp, handle: string) {
  return harness.app.inject({
    method: 'POST',
    url: '/v1/retrieve',
    headers: auth,
    payload: { handle, metadata: { user: 'ada' } },
  });
}

describe('the entitlement lease gate', () => {
  beforeEach(async () => {
    await store.db.exec(`DROP TABLE IF EXISTS gw_entitlement_lease; ${entitlementLeaseDdl}`);
  });

  it('answers /v1/optimize 402 once the stored lease expires, while /v1/retrieve is still served', async () => {
    const clock = new ManualClock();
    const issuer = leaseIssuer();
    await issuer.store(store.db, clock, { validForMs: 60_000 });
    const harness = await leasedApp(issuer, clock);
    const handle = await stashed(harness);

    clock.advance(60_000);
    const refused = await optimize(harness, 'short');
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error.code).toBe('lease_invalid');
    const retrieved = await retrieve(harness, handle);
    expect(retrieved.statusCode).toBe(200);
    expect(retrieved.json().content).toContain('kept 40');
    expect((await harness.app.inject({ method: 'GET', url: '/health' })).json().lease).toEqual({ state: 'expired' });
  });

  it('answers /v1/optimize 403 once a suspended lease is read, while /v1/retrieve is still served', async () => {
    const clock = new ManualClock();
    const issuer = leaseIssuer();
    await issuer.store(store.db, clock);
    const harness = await leasedApp(issuer, clock);
    const handle = await stashed(harness);

    clock.advance(1_000);
    await issuer.store(store.db, clock, { status: 'suspended' });
    await harness.reader.refresh();
    const refused = await optimize(harness, 'short');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('subscription_suspended');
    expect((await retrieve(harness, handle)).statusCode).toBe(200);
    expect((await harness.app.inject({ method: 'GET', url: '/health' })).json().lease).toEqual({ state: 'suspended' });
  });
});

import { randomUUID } from 'node:crypto';
import { billingError, entitlementResponse, meterResponse, type SignedLease } from '@gw/contracts';
import { generateEd25519KeyPair, leaseTrustStore, parseLeaseVerifyKey, verifyLease } from '@gw/platform';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startBillingSimulator,
  type BillingSimulatorHandle,
  type BillingSimulatorOptions,
} from './billing-simulator.js';

const START = Date.parse('2026-03-01T12:00:00.000Z');
const HOUR_MS = 60 * 60 * 1000;

let simulator: BillingSimulatorHandle;
let clock = START;

async function start(options: BillingSimulatorOptions = {}): Promise<BillingSimulatorHandle> {
  clock = START;
  simulator = await startBillingSimulator({ now: () => clock, ...options });
  return simulator;
}

afterEach(async () => {
  await simulator.close();
});

const USAGE = {
  requests: 10,
  errors: 1,
  promptTokens: 1200,
  completionTokens: 300,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0.42,
  savingsUsd: 0.05,
  tokensSaved: 80,
  activeUsers: 3,
};

function report(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    reportId: randomUUID(),
    deploymentId: simulator.deploymentId,
    gatewayVersion: '1.10.353',
    heartbeatTier: 'aggregate',
    window: { start: '2026-03-01T11:55:00.000Z', end: '2026-03-01T12:00:00.000Z' },
    usage: USAGE,
    fleet: null,
    leaseTrust: 'configured',
    ...overrides,
  };
}

function meter(body: unknown, token = simulator.deploymentToken): Promise<Response> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return fetch(`${simulator.url}/v1/meter`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: text,
  });
}

function entitlement(
  deploymentId: string | null = simulator.deploymentId,
  token = simulator.deploymentToken,
): Promise<Response> {
  const query = deploymentId === null ? '' : `?deploymentId=${encodeURIComponent(deploymentId)}`;
  return fetch(`${simulator.url}/v1/entitlement${query}`, { headers: { authorization: `Bearer ${token}` } });
}

function verified(lease: SignedLease) {
  const check = verifyLease(lease, leaseTrustStore({ [simulator.keyId]: simulator.publicKey }), simulator.deploymentId);
  if (!check.ok) throw new Error(`lease did not verify: ${check.reason}`);
  return check.payload;
}

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return billingError.parse(await response.json()).error;
}

describe('POST /v1/meter', () => {
  it('accepts a report and answers a lease that verifies against the simulator key', async () => {
    await start();
    const sent = report();
    const response = await meter(sent);

    expect(response.status).toBe(200);
    const body = meterResponse.parse(await response.json());
    expect(body.receivedAt).toBe('2026-03-01T12:00:00.000Z');
    expect(body.lease.keyId).toBe('sim-billing-1');
    expect(verified(body.lease)).toEqual({
      v: 1,
      deploymentId: 'dep_sim',
      status: 'active',
      optimizerEnabled: true,
      issuedAt: '2026-03-01T12:00:00.000Z',
      expiresAt: '2026-03-02T12:00:00.000Z',
    });
    expect(simulator.reports).toEqual([sent]);
  });

  it('signs leases that expire leaseTtlMs after the simulator clock', async () => {
    await start({ leaseTtlMs: HOUR_MS });
    clock = START + 5 * HOUR_MS;
    const lease = verified(meterResponse.parse(await (await meter(report())).json()).lease);

    expect(lease.issuedAt).toBe('2026-03-01T17:00:00.000Z');
    expect(lease.expiresAt).toBe('2026-03-01T18:00:00.000Z');
  });

  it('shows a suspension, an optimizer pause and a new TTL in the next lease', async () => {
    await start();
    simulator.setAccount({ status: 'suspended', optimizerEnabled: false, leaseTtlMs: 10 * 60_000 });
    const lease = verified(meterResponse.parse(await (await meter(report())).json()).lease);

    expect(lease).toMatchObject({
      status: 'suspended',
      optimizerEnabled: false,
      expiresAt: '2026-03-01T12:10:00.000Z',
    });

    simulator.setAccount({ status: 'active' });
    const restored = verified(meterResponse.parse(await (await meter(report())).json()).lease);
    expect(restored).toMatchObject({ status: 'active', optimizerEnabled: false });
  });

  it('counts a repeated reportId once and still answers it with a fresh lease', async () => {
    await start();
    const sent = report();
    const first = meterResponse.parse(await (await meter(sent)).json());
    clock += 30_000;
    const repeat = await meter(sent);

    expect(repeat.status).toBe(200);
    const second = meterResponse.parse(await repeat.json());
    expect(verified(second.lease).issuedAt).toBe('2026-03-01T12:00:30.000Z');
    expect(second.lease).not.toEqual(first.lease);
    expect(simulator.reports).toHaveLength(1);
  });

  it.each([
    ['a missing bearer', null],
    ['an unknown token', 'adt_unknownunknownunknownunknown0000'],
    ['a token without the adt_ prefix', 'not-a-deployment-token'],
    ['the right token without its prefix', 'strip-prefix'],
  ])('rejects %s with 401 invalid_deployment_token', async (_case, token) => {
    await start();
    const presented = token === 'strip-prefix' ? simulator.deploymentToken.slice(4) : token;
    const headers: Record<string, string> = presented === null ? {} : { authorization: `Bearer ${presented}` };
    const response = await fetch(`${simulator.url}/v1/meter`, {
      method: 'POST',
      headers,
      body: JSON.stringify(report()),
    });

    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('invalid_deployment_token');
    expect(simulator.reports).toEqual([]);
  });

  it.each([
    ['a field of the wrong type', { usage: { ...USAGE, promptTokens: 'many' } }, /^usage\.promptTokens: /],
    ['a field the contract does not know', { prompt: 'hello' }, /^prompt: /],
    ['a reportId that is not a UUID', { reportId: 'r-1' }, /^reportId: /],
    ['an unknown heartbeat tier', { heartbeatTier: 'verbose' }, /^heartbeatTier: /],
  ])('rejects a report with %s with 400 invalid_report naming the field', async (_case, overrides, message) => {
    await start();
    const response = await meter(report(overrides));

    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_report');
    expect(error.message).toMatch(message);
  });

  it('rejects a body that is not JSON with 400 invalid_report', async () => {
    await start();
    const response = await meter('{"reportId":');

    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual({ code: 'invalid_report', message: 'body is not JSON' });
  });

  it('rejects a body over 1 MiB with 413 payload_too_large and keeps serving', async () => {
    await start();
    const response = await meter({ ...report(), padding: 'x'.repeat(1024 * 1024) });

    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe('payload_too_large');
    expect((await meter(report())).status).toBe(200);
  });

  it('refuses a report for another deployment with 403 deployment_mismatch', async () => {
    await start();
    const response = await meter(report({ deploymentId: 'dep_other' }));

    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('deployment_mismatch');
    expect(simulator.reports).toEqual([]);
  });
});

describe('GET /v1/entitlement', () => {
  it('answers a lease for the token’s deployment', async () => {
    await start({ deploymentId: 'dep_acme', keyId: 'billing-test-7' });
    const response = await entitlement();

    expect(response.status).toBe(200);
    const { lease } = entitlementResponse.parse(await response.json());
    expect(lease.keyId).toBe('billing-test-7');
    expect(verified(lease)).toMatchObject({
      deploymentId: 'dep_acme',
      status: 'active',
      issuedAt: '2026-03-01T12:00:00.000Z',
    });
  });

  it('throttles a second refresh within the interval with 429 and Retry-After in whole seconds', async () => {
    await start({ entitlementIntervalMs: 60_000 });
    expect((await entitlement()).status).toBe(200);
    clock += 20_500;
    const throttled = await entitlement();

    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('40');
    expect((await errorOf(throttled)).code).toBe('rate_limited');

    clock = START + 60_000;
    expect((await entitlement()).status).toBe(200);
  });

  it('does not let a refused refresh push the window out', async () => {
    await start({ entitlementIntervalMs: 10_000 });
    await entitlement();
    clock += 9_999;
    const throttled = await entitlement();
    expect(throttled.headers.get('retry-after')).toBe('1');

    clock += 1;
    expect((await entitlement()).status).toBe(200);
  });

  it('leaves the refresh window alone when the gateway meters', async () => {
    await start();
    await meter(report());
    expect((await entitlement()).status).toBe(200);
  });

  it.each([
    ['missing', null],
    ['empty', ''],
  ])('answers a %s deploymentId with 400 invalid_request', async (_case, deploymentId) => {
    await start();
    const response = await entitlement(deploymentId);

    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe('invalid_request');
  });

  it('refuses another deployment’s lease with 403 deployment_mismatch', async () => {
    await start();
    const response = await entitlement('dep_other');

    expect(response.status).toBe(403);
    expect((await errorOf(response)).code).toBe('deployment_mismatch');
  });

  it('rejects an unknown bearer with 401 before looking at the throttle', async () => {
    await start();
    await entitlement();
    const response = await entitlement(simulator.deploymentId, 'adt_somebodyelse0000000000000000000');

    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('invalid_deployment_token');
  });
});

describe('the billing simulator', () => {
  it('answers the next requests scripted by failNext with 503 and retry-after, then recovers', async () => {
    await start();
    simulator.failNext(2);
    const first = await meter(report());
    const second = await entitlement();

    expect(first.status).toBe(503);
    expect(first.headers.get('retry-after')).toBe('1');
    expect((await errorOf(first)).code).toBe('service_unavailable');
    expect(second.status).toBe(503);
    expect((await meter(report())).status).toBe(200);
    expect(simulator.reports).toHaveLength(1);
  });

  it('fails with the status given to failNext, without retry-after unless it is retryable', async () => {
    await start();
    simulator.failNext(1, 500);
    const response = await meter(report());

    expect(response.status).toBe(500);
    expect(response.headers.get('retry-after')).toBeNull();
    expect((await errorOf(response)).code).toBe('internal_error');
  });

  it('keeps a failure scripted for one path from the requests to other paths', async () => {
    await start();
    simulator.failNext(1, 503, '/v1/entitlement');

    expect((await meter(report())).status).toBe(200);
    expect((await entitlement()).status).toBe(503);
    expect((await entitlement()).status).toBe(200);
    expect(() => simulator.failNext(1, 503, '/sso/cli/activate')).toThrow(/\/v1\//);
  });

  it('answers an unknown path with 404 and a wrong method with 405', async () => {
    await start();
    const missing = await fetch(`${simulator.url}/v1/no-such-route`);
    const wrongMethod = await fetch(`${simulator.url}/v1/meter`, {
      headers: { authorization: `Bearer ${simulator.deploymentToken}` },
    });

    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).code).toBe('not_found');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect((await errorOf(wrongMethod)).code).toBe('method_not_allowed');
  });

  it('records method, path and status of every request, without bodies or headers', async () => {
    await start();
    await meter(report());
    await entitlement();
    await entitlement();
    await fetch(`${simulator.url}/nowhere?token=x`);

    expect(simulator.requests).toEqual([
      { method: 'POST', path: '/v1/meter', status: 200 },
      { method: 'GET', path: '/v1/entitlement', status: 200 },
      { method: 'GET', path: '/v1/entitlement', status: 429 },
      { method: 'GET', path: '/nowhere', status: 404 },
    ]);
  });

  it('hands out a verify key in the GW_LEASE_VERIFY_KEY form and a fresh adt_ token', async () => {
    await start();

    expect(parseLeaseVerifyKey(simulator.verifyKey)).toEqual({
      keyId: simulator.keyId,
      publicKey: simulator.publicKey,
    });
    expect(simulator.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(simulator.deploymentToken).toMatch(/^adt_[A-Za-z0-9_-]{32}$/);
  });

  it('signs with its own key: the lease does not verify against another key under the same id', async () => {
    await start();
    const { lease } = meterResponse.parse(await (await meter(report())).json());
    const other = leaseTrustStore({ [simulator.keyId]: generateEd25519KeyPair().publicKey });

    expect(verifyLease(lease, other, simulator.deploymentId)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses to start with a deployment token that lacks the adt_ prefix', async () => {
    await start();
    await expect(startBillingSimulator({ deploymentToken: 'tok_123' })).rejects.toThrow(/adt_/);
  });
});

describe('the billing simulator’s organization hub directory', () => {
  const lookup = (body: unknown) =>
    fetch(`${simulator.url}/v1/org-hub/identity`, {
      method: 'POST',
      headers: { authorization: `Bearer ${simulator.deploymentToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const resource = 'https://gw.example/mcp/org';

  it('answers 503 until confirmed, then the member, or 403 with the refusal', async () => {
    await start();
    const request = { subject: 'okta|ada', organizationId: 'org_1', resource };
    expect((await lookup(request)).status).toBe(503);
    simulator.orgHub.confirm('org_1', resource);
    expect((await errorOf(await lookup(request))).code).toBe('membership_not_unique');
    simulator.orgHub.setMember('okta|ada', { email: 'ada@acme.example', team: 'platform' });
    expect(await (await lookup(request)).json()).toEqual({
      status: 'active',
      email: 'ada@acme.example',
      team: 'platform',
    });
    simulator.orgHub.setAllowedDomains(['other.example']);
    expect((await errorOf(await lookup(request))).code).toBe('domain_not_allowed');
    simulator.orgHub.setAllowedDomains(null);
    simulator.orgHub.setMember('okta|ada', { email: 'ada@acme.example', team: 'platform', ssoActivated: false });
    expect((await errorOf(await lookup(request))).code).toBe('sso_not_activated');
    expect((await lookup({ ...request, resource: 'https://gw.example/other' })).status).toBe(503);
    expect((await lookup({ ...request, token: 'eyJ…' })).status).toBe(400);
    expect(simulator.orgHub.lookups).toHaveLength(6);
  });
});

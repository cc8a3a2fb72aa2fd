import { afterEach, describe, expect, it } from 'vitest';
import { interfaceVersion } from '../src/service/docs/openapi.plugin.js';
import { isNewer } from '../src/service/updates.operations.js';
import { adminHeaders, startTestGateway } from './helpers.js';
import { startBilledGateway } from './billing-fixture.js';
import { mintAdminKey } from './admin-support.js';

const next = interfaceVersion.replace(/\d+$/, (patch) => String(Number(patch) + 7));

describe('update status and policy', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    delete process.env.GW_UPDATE_TEST_PRESENT;
  });

  async function setup() {
    const billed = await startBilledGateway();
    cleanups.push(() => billed.close());
    return billed;
  }

  it('reports the newer release, its class and a preflight that names missing variables only', async () => {
    process.env.GW_UPDATE_TEST_PRESENT = 'yes';
    const { gateway, billing, clock } = await setup();
    billing.setLatestRelease({
      version: next,
      releasedAt: '2026-11-25T00:00:00.000Z',
      updateClass: 'hard',
      requirements: {
        env: ['GW_UPDATE_TEST_PRESENT', 'GW_UPDATE_TEST_MISSING'],
        notes: ['The spend table gains a column.'],
      },
    });
    const status = await gateway.app.inject({ method: 'GET', url: '/admin/update-status', headers: adminHeaders });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      running: interfaceVersion,
      available: next,
      updateAvailable: true,
      updateClass: 'hard',
      preflight: { ready: false, missingEnv: ['GW_UPDATE_TEST_MISSING'], notes: ['The spend table gains a column.'] },
      autoSoftUpdates: true,
      hasApplier: false,
      lastApplyAttempt: null,
      source: 'billing',
      checkedAt: new Date(clock.now()).toISOString(),
    });
    expect(status.body).not.toContain('yes');

    // Cached for a quarter of an hour; billing down afterwards keeps the last answer and says so.
    billing.setLatestRelease(null);
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/settings/updates', headers: adminHeaders })).json(),
    ).toMatchObject({ available: next });
    clock.advance(16 * 60_000);
    // Only the release check fails: the metering lane's report, due after 16 minutes, may reach billing first.
    billing.failNext(1, 503, '/v1/releases/latest');
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/settings/updates', headers: adminHeaders })).json(),
    ).toMatchObject({ available: next, source: 'billing-unreachable' });
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/settings/updates', headers: adminHeaders })).json(),
    ).toMatchObject({ available: null, updateAvailable: false, source: 'billing' });
  });

  it('sets the self-update policy through both surfaces and audits it', async () => {
    const { gateway } = await setup();
    const legacy = await gateway.app.inject({
      method: 'PUT',
      url: '/admin/update/settings',
      headers: adminHeaders,
      payload: { autoSoftUpdates: false },
    });
    expect(legacy.statusCode).toBe(200);
    expect(legacy.json()).toMatchObject({ autoSoftUpdates: false });
    expect(
      (
        await gateway.app.inject({
          method: 'PUT',
          url: '/admin/v1/settings/updates',
          headers: adminHeaders,
          payload: { autoSoftUpdates: true, extra: 1 },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await gateway.app.inject({
          method: 'PUT',
          url: '/admin/v1/settings/updates',
          headers: adminHeaders,
          payload: { autoSoftUpdates: true },
        })
      ).json(),
    ).toMatchObject({ autoSoftUpdates: true });
    const audit = (
      await gateway.app.inject({
        method: 'GET',
        url: '/admin/v1/audit/events?category=settings',
        headers: adminHeaders,
      })
    ).json();
    expect(audit.data.length).toBeGreaterThanOrEqual(2);
  });

  it('answers the console update pre-check with 200 only while a soft update is pending, and applies nothing', async () => {
    const { gateway, billing, clock } = await setup();
    const check = (headers: Record<string, string> = adminHeaders) =>
      gateway.app.inject({ method: 'GET', url: '/admin/auth/update', headers });
    billing.setLatestRelease({
      version: next,
      releasedAt: '2026-11-25T00:00:00.000Z',
      updateClass: 'soft',
      requirements: { env: [], notes: [] },
    });
    const soft = await check();
    expect(soft.statusCode).toBe(200);
    expect(soft.headers.deprecation).toBeUndefined();
    expect(soft.json()).toMatchObject({ available: next, updateClass: 'soft', running: interfaceVersion });
    const viewer = await mintAdminKey(gateway.app, { caps: ['config:read'] });
    expect((await check({ authorization: `Bearer ${viewer.key}` })).statusCode).toBe(403);
    clock.advance(16 * 60_000);
    billing.setLatestRelease({
      version: next,
      releasedAt: '2026-11-25T00:00:00.000Z',
      updateClass: 'hard',
      requirements: { env: [], notes: [] },
    });
    const hard = await check();
    expect(hard.statusCode).toBe(403);
    expect(hard.json()).toMatchObject({ error: { code: 'update_not_soft' } });
    // A console session route: not re-served under /admin/v1.
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/v1/auth/update', headers: adminHeaders })).statusCode,
    ).toBe(404);
  });

  it('knows nothing newer without billing', async () => {
    const gateway = await startTestGateway();
    cleanups.push(() => gateway.close());
    expect(
      (await gateway.app.inject({ method: 'GET', url: '/admin/update-status', headers: adminHeaders })).json(),
    ).toMatchObject({ available: null, updateAvailable: false, source: 'not-configured', preflight: { ready: true } });
  });

  it('compares release versions numerically', () => {
    expect(isNewer('1.10.360', '1.10.99')).toBe(true);
    expect(isNewer('1.10.353', '1.10.353')).toBe(false);
    expect(isNewer('1.9.999', '1.10.0')).toBe(false);
  });
});

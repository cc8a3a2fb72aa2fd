import { afterEach, describe, expect, it } from 'vitest';
import { adminHeaders, startTestGateway, type TestGateway } from './helpers.js';
import { startBilledGateway } from './billing-fixture.js';

describe('sharing the support bundle', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function meteredGateway() {
    const billed = await startBilledGateway();
    cleanups.push(() => billed.close());
    return billed;
  }
  const bundleOf = async (gateway: TestGateway) =>
    (await gateway.app.inject({ method: 'GET', url: '/admin/v1/settings/support-bundle', headers: adminHeaders })).json<
      Record<string, unknown>
    >();
  const share = (gateway: TestGateway, payload: Record<string, unknown>) =>
    gateway.app.inject({
      method: 'POST',
      url: '/admin/v1/settings/support-bundle/share',
      headers: adminHeaders,
      payload,
    });

  it('hands the reviewed bundle to support and answers the receipt, once a minute', async () => {
    const { gateway, billing, clock } = await meteredGateway();
    const bundle = await bundleOf(gateway);
    const shared = await share(gateway, { bundle, note: 'Streams stall after an hour.' });
    expect(shared.statusCode).toBe(200);
    const receipt = shared.json();
    expect(receipt).toEqual({
      receiptId: expect.stringMatching(/^sbr_/),
      receivedAt: new Date(clock.now()).toISOString(),
    });
    expect(billing.supportBundles).toHaveLength(1);
    expect(billing.supportBundles[0]?.upload).toEqual({
      deploymentId: billing.deploymentId,
      bundle,
      note: 'Streams stall after an hour.',
    });
    expect(JSON.stringify(billing.supportBundles)).not.toContain(billing.deploymentToken);

    const again = await share(gateway, { bundle });
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({ error: { code: 'support_bundle_throttled' } });
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    clock.advance(60_000);
    expect((await share(gateway, { bundle })).statusCode).toBe(200);

    const audit = (
      await gateway.app.inject({ method: 'GET', url: '/admin/v1/audit/events?limit=50', headers: adminHeaders })
    ).json();
    expect(audit.data.some((entry: { target: string | null }) => entry.target === receipt.receiptId)).toBe(true);
  });

  it('refuses what a bundle never holds: an added field, a long value', async () => {
    const { gateway, billing } = await meteredGateway();
    const bundle = await bundleOf(gateway);
    expect((await share(gateway, { bundle: { ...bundle, transcript: 'user: here is my prompt' } })).statusCode).toBe(
      400,
    );
    const configuration = { ...(bundle.configuration as Record<string, unknown>), GW_NOTE: 'x'.repeat(600) };
    expect((await share(gateway, { bundle: { ...bundle, configuration } })).statusCode).toBe(400);
    expect(billing.supportBundles).toHaveLength(0);
  });

  it('says so when the gateway has no billing intake', async () => {
    const gateway = await startTestGateway();
    cleanups.push(() => gateway.close());
    const answer = await share(gateway, { bundle: await bundleOf(gateway) });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ error: { code: 'support_intake_not_configured' } });
  });
});

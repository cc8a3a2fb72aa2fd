import { billingError, supportBundleMaxBytes, supportBundleReceipt } from '@gw/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { startBillingSimulator, type BillingSimulatorHandle } from './billing-simulator.js';

const START = Date.parse('2026-03-01T12:00:00.000Z');
let clock = START;
let simulator: BillingSimulatorHandle;

afterEach(async () => {
  await simulator.close();
});

function upload(body: unknown, token = simulator.deploymentToken): Promise<Response> {
  return fetch(`${simulator.url}/v1/support-bundles`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const errorCode = async (response: Response) => billingError.parse(await response.json()).error.code;

describe('POST /v1/support-bundles', () => {
  it('takes one bundle per deployment per minute and answers a receipt', async () => {
    clock = START;
    simulator = await startBillingSimulator({ now: () => clock });
    const sent = { deploymentId: simulator.deploymentId, bundle: { bundleVersion: 1 }, note: 'slow streams' };
    const first = await upload(sent);
    expect(first.status).toBe(200);
    const receipt = supportBundleReceipt.parse(await first.json());
    expect(receipt.receivedAt).toBe('2026-03-01T12:00:00.000Z');
    expect(simulator.supportBundles).toEqual([{ ...receipt, upload: sent }]);

    clock += 59_000;
    const throttled = await upload(sent);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('1');
    expect(await errorCode(throttled)).toBe('rate_limited');
    clock += 1_000;
    expect((await upload(sent)).status).toBe(200);
  });

  it('refuses a bad bearer, a bad body, another deployment and more than 1,000,000 bytes', async () => {
    simulator = await startBillingSimulator();
    expect(
      await errorCode(
        await upload({ deploymentId: simulator.deploymentId, bundle: {} }, 'adt_wrong_token_000000000000000000'),
      ),
    ).toBe('invalid_deployment_token');
    expect(await errorCode(await upload('not json'))).toBe('invalid_request');
    expect(await errorCode(await upload({ deploymentId: simulator.deploymentId, bundle: {}, extra: true }))).toBe(
      'invalid_request',
    );
    expect(await errorCode(await upload({ deploymentId: 'dep_other', bundle: {} }))).toBe('deployment_mismatch');
    const large = await upload({
      deploymentId: simulator.deploymentId,
      bundle: { padding: 'x'.repeat(supportBundleMaxBytes) },
    });
    expect(large.status).toBe(413);
    expect(simulator.supportBundles).toEqual([]);
  });
});

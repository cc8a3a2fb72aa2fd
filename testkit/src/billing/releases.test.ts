import { latestReleaseResponse } from '@gw/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { startBillingSimulator, type BillingSimulatorHandle } from './billing-simulator.js';

let simulator: BillingSimulatorHandle;
afterEach(async () => {
  await simulator.close();
});

const latest = (token = simulator.deploymentToken) =>
  fetch(`${simulator.url}/v1/releases/latest`, { headers: { authorization: `Bearer ${token}` } });

describe('GET /v1/releases/latest', () => {
  it("answers the release line's manifest, or null, to the deployment bearer only", async () => {
    simulator = await startBillingSimulator();
    expect(latestReleaseResponse.parse(await (await latest()).json())).toEqual({ release: null });
    const manifest = {
      version: '1.10.360',
      releasedAt: '2026-11-25T00:00:00.000Z',
      updateClass: 'soft' as const,
      requirements: { env: ['GW_NEW_SETTING'], notes: [] },
    };
    simulator.setLatestRelease(manifest);
    expect(latestReleaseResponse.parse(await (await latest()).json())).toEqual({ release: manifest });
    expect((await latest('adt_wrong_token_000000000000000000')).status).toBe(401);
    expect(() => simulator.setLatestRelease({ ...manifest, version: 'next' })).toThrow();
  });
});

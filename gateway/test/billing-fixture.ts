import { ManualClock } from '@gw/platform';
import { startBillingSimulator, type BillingSimulatorHandle, type BillingSimulatorOptions } from '@gw/testkit';
import { startTestGateway, type TestGateway } from './helpers.js';

/** The variables that connect a gateway to billing; `trustBilling: false` leaves the simulator's lease and device CA keys untrusted. */
export function billingEnv(
  billing: BillingSimulatorHandle,
  options: { trustBilling?: boolean } = {},
): Record<string, string> {
  return {
    GW_BILLING_URL: billing.url,
    GW_DEPLOYMENT_TOKEN: billing.deploymentToken,
    GW_DEPLOYMENT_ID: billing.deploymentId,
    // Count what a test just wrote: no batch is in flight once the spend writer has drained.
    GW_METER_SETTLE_MS: '0',
    ...(options.trustBilling === false
      ? {}
      : { GW_LEASE_VERIFY_KEY: billing.verifyKey, GW_DEVICE_CA_KEY: billing.deviceCaVerifyKey }),
  };
}

export interface BilledGateway {
  gateway: TestGateway;
  billing: BillingSimulatorHandle;
  clock: ManualClock;
  close(): Promise<void>;
}

/** A billing simulator and a gateway connected to it, on one manual clock. */
export async function startBilledGateway(
  options: { billing?: Omit<BillingSimulatorOptions, 'now'>; env?: Record<string, string> } = {},
): Promise<BilledGateway> {
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
  const billing = await startBillingSimulator({ ...options.billing, now: () => clock.now() });
  try {
    const gateway = await startTestGateway({ clock, env: { ...billingEnv(billing), ...options.env } });
    return {
      gateway,
      billing,
      clock,
      close: async () => {
        await gateway.close();
        await billing.close();
      },
    };
  } catch (error) {
    await billing.close();
    throw error;
  }
}

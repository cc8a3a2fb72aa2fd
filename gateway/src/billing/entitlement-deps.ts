import { trustedLeaseKeys, type Clock, type Coord, type Db, type Lifecycle, type Logger } from '@gw/platform';
import type { GatewayConfig } from '../config.js';
import { interfaceVersion } from '../shared/interface-version.js';
import type { EndpointDeps } from '../fleet/endpoint-deps.js';
import { unmeteredLease, type LeaseFields } from '../admin/settings/health.operations.js';
import type { SettingsStore } from '../admin/settings/settings.store.js';
import { BillingClient } from './billing-client.js';
import { LeaseRefresher } from './lease-refresher.js';
import { EntitlementGate } from './entitlement-gate.js';
import { MeteringLane } from './metering-lane.js';
import { MeteringReportStore } from './metering-reports.store.js';
import { fleetRollupSource } from './fleet-rollup-source.js';
import { EnrollmentOutboxStore } from './enrollment-outbox.store.js';
import { IdentityReflector } from './identity-reflector.js';

/** How often a replica reports SCIM changes to billing's roster of enrolled identities. */
const identityReflectIntervalMs = 10_000;

/** The metering lane and the entitlement gate; both null on an unmetered gateway (no `GW_BILLING_URL`). */
export interface EntitlementDeps {
  gate: EntitlementGate | null;
  lane: MeteringLane | null;
  reports: MeteringReportStore;
  /** The billing machine API client (metering, CLI login); null without `GW_BILLING_URL`. */
  billing: BillingClient | null;
  /** SCIM reflection to billing's roster of enrolled identities; null without `GW_BILLING_URL`. */
  identities: IdentityReflector | null;
  leaseTrust: 'pinned' | 'configured';
  /** `/admin/health` lease fields. */
  lease: () => LeaseFields;
  /** A metered gateway holding no lease at all is not ready (an expired or suspended one is). */
  holdsNoLease: () => boolean;
}

export interface EntitlementInput {
  config: GatewayConfig;
  db: Db;
  coord: Coord;
  clock: Clock;
  logger: Logger;
  lifecycle: Lifecycle;
  settings: SettingsStore;
  endpoint: EndpointDeps | null;
  fetch?: typeof fetch;
}

export async function composeEntitlement(input: EntitlementInput): Promise<EntitlementDeps> {
  const { config, db, coord, clock, logger, lifecycle } = input;
  const reports = new MeteringReportStore(db);
  const { trust, leaseTrust } = trustedLeaseKeys(config.GW_LEASE_VERIFY_KEY);
  if (!config.GW_BILLING_URL || !config.GW_DEPLOYMENT_ID || !config.GW_DEPLOYMENT_TOKEN) {
    return {
      gate: null,
      lane: null,
      reports,
      billing: null,
      identities: null,
      leaseTrust,
      lease: () => unmeteredLease,
      holdsNoLease: () => false,
    };
  }
  const gate = new EntitlementGate({ db, deploymentId: config.GW_DEPLOYMENT_ID, trust, clock, logger });
  await gate.start();
  lifecycle.onShutdown(async () => gate.stop());
  const billing = new BillingClient({
    baseUrl: config.GW_BILLING_URL,
    deploymentToken: config.GW_DEPLOYMENT_TOKEN,
    ...(input.fetch ? { fetch: input.fetch } : {}),
  });
  const lane = new MeteringLane({
    db,
    coord,
    clock,
    logger,
    billing,
    reports,
    gate,
    trust,
    leaseTrust,
    deploymentId: config.GW_DEPLOYMENT_ID,
    gatewayVersion: interfaceVersion,
    heartbeatTier: async () => input.settings.get().heartbeatTier,
    fleet: fleetRollupSource(input.endpoint),
    intervalMs: config.GW_METER_INTERVAL_MS,
    settleMs: config.GW_METER_SETTLE_MS,
    refresher: new LeaseRefresher({ billing, logger, db, deploymentId: config.GW_DEPLOYMENT_ID, trust, gate, clock }),
  });
  lane.start();
  lifecycle.onShutdown(() => lane.stop());
  const identities = new IdentityReflector({
    outbox: new EnrollmentOutboxStore(db),
    billing,
    clock,
    logger,
    deploymentId: config.GW_DEPLOYMENT_ID,
    intervalMs: identityReflectIntervalMs,
  });
  identities.start();
  lifecycle.onShutdown(() => identities.stop());
  return {
    gate,
    lane,
    reports,
    billing,
    identities,
    leaseTrust,
    lease: () => ({
      leaseStatus: gate.verdict().state,
      leaseSource: gate.leaseSource,
      leaseTrust,
      leaseAcquire: lane.state,
    }),
    holdsNoLease: () => gate.verdict().state === 'none',
  };
}

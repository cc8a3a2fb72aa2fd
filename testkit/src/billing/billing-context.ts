import type { EntitlementThrottle } from './entitlement-throttle.js';
import type { LeaseIssuer } from './lease-issuer.js';
import type { MeterLedger } from './meter-ledger.js';

/** What the routes share: the one deployment billing knows, its clock, and the state the routes read and write. */
export interface BillingContext {
  readonly deploymentId: string;
  readonly deploymentToken: string;
  now(): number;
  readonly leases: LeaseIssuer;
  readonly ledger: MeterLedger;
  readonly throttle: EntitlementThrottle;
}

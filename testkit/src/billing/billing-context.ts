import type { ReleaseManifest, SupportBundleUpload } from '@gw/contracts';
import type { CliDirectory } from './cli-directory.js';
import type { CliSessions } from './cli-sessions.js';
import type { DeploymentThrottle } from './deployment-throttle.js';
import type { DeviceCertificateAuthority } from './device-ca.js';
import type { EnrollmentRoster, TenantDirectory } from './enrollment-roster.js';
import type { LeaseIssuer } from './lease-issuer.js';
import type { MeterLedger } from './meter-ledger.js';
import type { OrgHubDirectory } from './org-hub-directory.js';

/** A bundle billing took, as support sees it. */
export interface ReceivedSupportBundle {
  receiptId: string;
  receivedAt: string;
  upload: SupportBundleUpload;
}

/** What the routes share: the one deployment billing knows, its clock, and the state the routes read and write. */
export interface BillingContext {
  readonly deploymentId: string;
  readonly deploymentToken: string;
  now(): number;
  /** The simulator's origin; known only once it listens, hence a function. */
  url(): string;
  readonly leases: LeaseIssuer;
  readonly ledger: MeterLedger;
  readonly throttle: DeploymentThrottle;
  /** One support bundle per deployment per minute. */
  readonly bundleThrottle: DeploymentThrottle;
  readonly supportBundles: ReceivedSupportBundle[];
  /** What `GET /v1/releases/latest` answers; tests set it. */
  readonly release: { current: ReleaseManifest | null };
  readonly cliSessions: CliSessions;
  readonly directory: CliDirectory;
  /** Lifetime of the key the gateway mints for a developer verified in the browser. */
  readonly cliKeyLifetimeHours: number;
  readonly orgHub: OrgHubDirectory;
  /** Device certificates: the test CA that signs them for `/v1/cert/renew`. */
  readonly deviceCa: DeviceCertificateAuthority;
  /** What `PUT /v1/enrollment-identities` recorded. */
  readonly roster: EnrollmentRoster;
  /** What `GET /v1/tenant-context` resolves (fleet mode only). */
  readonly tenants: TenantDirectory;
}

import { randomBytes } from 'node:crypto';
import {
  deploymentTokenPrefix,
  type DevicePublicJwk,
  type SignedDeviceCertificate,
  entitlementLeasePayload,
  releaseManifest,
  type MeterReport,
  type ReleaseManifest,
  type EnrollmentIdentity,
  type TenantContext,
} from '@gw/contracts';
import { BillingAccount, positiveMs, type BillingAccountChange } from './billing-account.js';
import { createBillingRouter, type BillingRequestRecord } from './billing-router.js';
import { listenBilling } from './billing-server.js';
import { CliDirectory } from './cli-directory.js';
import { verifiedAnswer, type CliDenialReason, type CliDirectoryEntry, type CliLoginIdentity } from './cli-identity.js';
import { CliSessions, type CliSession } from './cli-sessions.js';
import { DeploymentThrottle } from './deployment-throttle.js';
import { EnrollmentRoster, type TenantDirectory } from './enrollment-roster.js';
import { FailureQueue } from './fail-next.js';
import { createDeviceCertificateAuthority } from './device-ca.js';
import { createLeaseIssuer } from './lease-issuer.js';
import { MAX_METER_BODY_BYTES } from './meter.routes.js';
import { MeterLedger } from './meter-ledger.js';
import { OrgHubDirectory } from './org-hub-directory.js';
import type { ReceivedSupportBundle } from './billing-context.js';

export interface BillingSimulatorOptions {
  /** What `GET /v1/releases/latest` answers (default null: no manifest for the line). */
  latestRelease?: ReleaseManifest | null;
  /** The one deployment billing knows (default `dep_sim`). */
  deploymentId?: string;
  /** Its bearer; must start with `adt_` (default `adt_` + 32 random base64url characters). */
  deploymentToken?: string;
  /** Signing key id in every lease (default `sim-billing-1`). */
  keyId?: string;
  /** Lease lifetime from issue (default 24 h); `setAccount` changes it for later leases. */
  leaseTtlMs?: number;
  /** Per-deployment throttle of GET /v1/entitlement (default 60 000). */
  entitlementIntervalMs?: number;
  /** Organization directory for CLI login, by email (default empty: every browser sign-in is denied `no_company`). */
  directory?: Readonly<Record<string, CliDirectoryEntry>>;
  /** Key lifetime billing returns for a developer verified in the browser (default 720, i.e. 30 days). */
  cliKeyLifetimeHours?: number;
  /** Billing's clock: lease timestamps, `receivedAt`, the throttle and CLI session expiry all read it (default `Date.now`). */
  now?: () => number;
  /** Lifetime of a device certificate from issue or renewal (default 30 days). */
  deviceCertificateTtlMs?: number;
  /** A fleet deployment (`GET /v1/tenant-context` answers); default false, which answers 404 `fleet_mode_disabled`. */
  fleetMode?: boolean;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (an ephemeral port). */
  port?: number;
}

export interface BillingSimulatorHandle {
  /** Origin, e.g. `http://127.0.0.1:53121`: the gateway's GW_BILLING_URL. */
  url: string;
  deploymentId: string;
  deploymentToken: string;
  keyId: string;
  /** Raw Ed25519 public key that verifies the leases, base64url (43 characters). */
  publicKey: string;
  /** `<keyId>:<publicKey>`: the gateway's GW_LEASE_VERIFY_KEY. */
  verifyKey: string;
  /** `<keyId>:<raw Ed25519 public key>` of the test CA that signs device certificates: the gateway's GW_DEVICE_CA_KEY. */
  deviceCaVerifyKey: string;
  /**
   * A device certificate for `subject`'s key, as the desktop sign-in hands one out (that browser flow is not simulated):
   * the starting point a device then renews through `POST /v1/cert/renew`.
   */
  issueDeviceCertificate(subject: string, deviceKey: DevicePublicJwk): SignedDeviceCertificate;
  /** Revoke a developer (address, any case): billing renews none of their certificates from now on. */
  revokeDeveloper(subject: string): void;
  /** Accepted meter reports in arrival order, each `reportId` once. */
  reports: readonly MeterReport[];
  /** Every support bundle the intake took, with its receipt. */
  supportBundles: readonly ReceivedSupportBundle[];
  /** What `GET /v1/releases/latest` answers from now on (null: no manifest for the line). */
  setLatestRelease(manifest: ReleaseManifest | null): void;
  /** Method, path and status of every request, in order. */
  requests: readonly BillingRequestRecord[];
  /** CLI logins the gateway started, in order (the user code included, so a test can type it into the form). */
  cliSessions: readonly CliSession[];
  /** Settle a CLI login as verified without the browser; replaces any earlier decision. */
  approveCliLogin(sessionId: string, identity: CliLoginIdentity): void;
  /** Settle a CLI login as denied without the browser; replaces any earlier decision. */
  denyCliLogin(sessionId: string, reason: CliDenialReason): void;
  /** Add or replace a directory entry; later browser sign-ins with that email see it. */
  setDirectoryEntry(email: string, entry: CliDirectoryEntry): void;
  removeDirectoryEntry(email: string): void;
  /** The organization hub's directory (`POST /v1/org-hub/identity`): confirm, members, allowed domains, lookups seen. */
  orgHub: OrgHubDirectory;
  /** The roster `PUT /v1/enrollment-identities` built, by identity hash (the highest revision of each). */
  enrollmentIdentities: ReadonlyMap<string, EnrollmentIdentity>;
  /** Each accepted `PUT /v1/enrollment-identities` request's identities, in arrival order. */
  enrollmentBatches: readonly EnrollmentIdentity[][];
  /** What `GET /v1/tenant-context` answers for the client key whose SHA-256 hex is `clientKeyHash` (fleet mode). */
  setTenantContext(clientKeyHash: string, tenant: Omit<TenantContext, 'deploymentId'>): void;
  /** Change the subscription; every lease signed afterwards carries it. */
  setAccount(change: BillingAccountChange): void;
  /**
   * The next `count` /v1/* requests, or with `path` the next `count` requests to that path, answer `status` with the
   * error envelope (503 and 429 with `retry-after: 1`).
   */
  failNext(count: number, status?: number, path?: string): void;
  close(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The billing service's gateway-facing machine API: `/v1/meter`, `/v1/entitlement`, and the identity
 * half of CLI login (`/v1/cli-sso/*` with its browser pages under `/sso/cli/`), the enrolled-identity roster
 * (`PUT /v1/enrollment-identities`) and the fleet tenant lookup (`GET /v1/tenant-context`).
 */
export async function startBillingSimulator(options: BillingSimulatorOptions = {}): Promise<BillingSimulatorHandle> {
  const deploymentId = entitlementLeasePayload.shape.deploymentId.parse(options.deploymentId ?? 'dep_sim');
  const deploymentToken = options.deploymentToken ?? `${deploymentTokenPrefix}${randomBytes(24).toString('base64url')}`;
  if (!deploymentToken.startsWith(deploymentTokenPrefix))
    throw new Error(`deploymentToken must start with ${deploymentTokenPrefix}`);
  const account = new BillingAccount(options.leaseTtlMs ?? DAY_MS);
  const leases = createLeaseIssuer(deploymentId, options.keyId ?? 'sim-billing-1', account);
  const ledger = new MeterLedger();
  const throttle = new DeploymentThrottle(positiveMs(options.entitlementIntervalMs ?? 60_000, 'entitlementIntervalMs'));
  const failures = new FailureQueue();
  const requests: BillingRequestRecord[] = [];
  const cliSessions = new CliSessions();
  const directory = new CliDirectory(options.directory);
  const orgHub = new OrgHubDirectory();
  const cliKeyLifetimeHours = keyLifetimeHours(options.cliKeyLifetimeHours ?? 720);
  let url = '';
  const now = options.now ?? Date.now;
  const supportBundles: ReceivedSupportBundle[] = [];
  const release: { current: ReleaseManifest | null } = {
    current: options.latestRelease ? releaseManifest.parse(options.latestRelease) : null,
  };
  const deviceCa = createDeviceCertificateAuthority(
    deploymentId,
    'sim-device-ca-1',
    positiveMs(options.deviceCertificateTtlMs ?? 30 * DAY_MS, 'deviceCertificateTtlMs'),
  );
  const roster = new EnrollmentRoster();
  const tenants: TenantDirectory = { fleetMode: options.fleetMode ?? false, byKeyHash: new Map() };
  const context = {
    roster,
    tenants,
    deviceCa,
    deploymentId,
    deploymentToken,
    now,
    url: () => url,
    leases,
    ledger,
    throttle,
    bundleThrottle: new DeploymentThrottle(60_000),
    supportBundles,
    release,
    cliSessions,
    directory,
    cliKeyLifetimeHours,
    orgHub,
  };
  const server = await listenBilling(createBillingRouter(context, failures, requests), {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    maxBodyBytes: MAX_METER_BODY_BYTES,
  });
  url = server.url;
  return {
    url,
    deploymentId,
    deploymentToken,
    keyId: leases.keyId,
    publicKey: leases.publicKey,
    verifyKey: leases.verifyKey,
    deviceCaVerifyKey: deviceCa.verifyKey,
    issueDeviceCertificate: (subject, deviceKey) => deviceCa.issue(subject, deviceKey, now()),
    revokeDeveloper: (subject) => {
      deviceCa.revokedSubjects.add(subject.toLowerCase());
    },
    reports: ledger.reports,
    supportBundles,
    setLatestRelease: (manifest) => {
      release.current = manifest === null ? null : releaseManifest.parse(manifest);
    },
    requests,
    cliSessions: cliSessions.started,
    approveCliLogin: (sessionId, identity) =>
      cliSessions.settle(sessionId, verifiedAnswer(identity, cliKeyLifetimeHours)),
    denyCliLogin: (sessionId, reason) => cliSessions.settle(sessionId, { status: 'denied', reason }),
    setDirectoryEntry: (email, entry) => directory.set(email, entry),
    removeDirectoryEntry: (email) => {
      directory.remove(email);
    },
    setAccount: (change) => account.change(change),
    enrollmentIdentities: roster.identities,
    enrollmentBatches: roster.batches,
    setTenantContext: (clientKeyHash, tenant) => {
      tenants.byKeyHash.set(clientKeyHash, tenant);
    },
    orgHub,
    failNext: (count, status = 503, path) => failures.add(count, status, path),
    close: () => server.close(),
  };
}

function keyLifetimeHours(value: number): number {
  if (!Number.isInteger(value) || value < 1 || value > 8760)
    throw new Error(`cliKeyLifetimeHours must be a whole number of hours 1–8760, got ${value}`);
  return value;
}

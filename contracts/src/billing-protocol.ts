import { z } from 'zod';

/**
 * The gateway ↔ billing machine API's bodies: the usage rollup the gateway meters, and the
 * Ed25519-signed entitlement lease billing answers with. The spec leaves both shapes "not shown"; these are ours, and
 * the billing simulator in testkit speaks exactly them. Content-free by construction: counts, tokens and dollars,
 * never a prompt, a completion, a user name or a key.
 */

const base64url = /^[A-Za-z0-9_-]+$/;
const instant = z.string().datetime({ offset: true });

export const deploymentTokenPrefix = 'adt_';

export const heartbeatTiers = ['full', 'aggregate', 'minimal'] as const;
export type HeartbeatTier = (typeof heartbeatTiers)[number];

/** What a lease grants. Signed by billing; the gateway and the optimizer verify it against pinned keys. */
export const entitlementLeasePayload = z
  .object({
    v: z.literal(1),
    deploymentId: z
      .string()
      .min(1)
      .max(128)
      .describe('The deployment the lease was issued to; a lease for another deployment does not verify'),
    status: z
      .enum(['active', 'suspended'])
      .describe('`suspended`: the subscription is suspended; inference answers 403, the optimizer 403'),
    optimizerEnabled: z
      .boolean()
      .describe('`false` pauses optimization (the optimizer answers 402); inference is unaffected'),
    issuedAt: instant,
    expiresAt: instant.describe(
      'After this instant the lease is expired: inference answers 402 until a fresh lease arrives',
    ),
  })
  .strict();
export type EntitlementLeasePayload = z.infer<typeof entitlementLeasePayload>;

/** The lease as it travels and is stored: the payload's JSON bytes in base64url, and a detached signature over them. */
export const signedLease = z
  .object({
    payload: z.string().min(1).max(4096).regex(base64url, 'base64url'),
    signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'an unpadded base64url Ed25519 signature'),
    keyId: z.string().min(1).max(64).describe('Which signing key; the verifier looks it up among the keys it trusts'),
  })
  .strict();
export type SignedLease = z.infer<typeof signedLease>;

/** Domain separation: a lease signature can never be replayed as any other signed message of the product. */
export const leaseSigningContext = 'gw-entitlement-lease.v1.';

const tokenCounts = {
  requests: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  cacheReadTokens: z.number().int().nonnegative(),
  cacheWriteTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
};

export const modelRollup = z
  .object({ provider: z.string().max(128), model: z.string().max(256), ...tokenCounts })
  .strict();

export const usageRollup = z
  .object({
    ...tokenCounts,
    savingsUsd: z.number().nonnegative(),
    tokensSaved: z.number().int().nonnegative(),
    activeUsers: z
      .number()
      .int()
      .nonnegative()
      .describe('Distinct users with a call in the window: a count, never who'),
    models: z.array(modelRollup).max(1000).optional().describe('Per provider and model; `full` tier only'),
  })
  .strict();
export type UsageRollup = z.infer<typeof usageRollup>;

/** The only endpoint data the gateway forwards. */
export const fleetRollup = z
  .object({
    reachable: z.boolean(),
    hosts: z.number().int().nonnegative(),
    compliantHosts: z.number().int().nonnegative(),
    failingPolicies: z.number().int().nonnegative(),
    policyPackVersion: z.string().max(128).nullable(),
  })
  .strict();
export type FleetRollup = z.infer<typeof fleetRollup>;

export const meterReport = z
  .object({
    reportId: z.string().uuid().describe('Idempotency key: a retried report is counted once'),
    deploymentId: z.string().min(1).max(128),
    gatewayVersion: z.string().max(64),
    heartbeatTier: z
      .enum(heartbeatTiers)
      .describe('`full`: totals and per-model rollups; `aggregate`: totals; `minimal`: liveness only'),
    window: z
      .object({ start: instant, end: instant })
      .strict()
      .describe('The spend records counted: start inclusive, end exclusive'),
    usage: usageRollup.nullable().describe('Null on the `minimal` tier'),
    fleet: fleetRollup.nullable().describe('Null when no endpoint evidence service is configured'),
    leaseTrust: z
      .enum(['pinned', 'configured'])
      .describe('Whether this gateway verifies leases only against the pinned keys'),
  })
  .strict();
export type MeterReport = z.infer<typeof meterReport>;

export const meterResponse = z.object({ lease: signedLease, receivedAt: instant }).strict();
export type MeterResponse = z.infer<typeof meterResponse>;

export const entitlementResponse = z.object({ lease: signedLease }).strict();

/** Billing's error envelope (its machine API shares the gateway's `{error: {code, message}}`). */
export const billingError = z
  .object({ error: z.object({ code: z.string(), message: z.string() }).passthrough() })
  .passthrough();

/**
 * CLI login, billing's identity half. The gateway owns the session, the
 * poll secret and the key; billing only verifies who signed in in the browser and which teams they may join. It
 * never sees the poll secret and never returns a gateway key.
 */
export const cliSessionId = z.string().regex(/^cli_[A-Za-z0-9_-]{22,64}$/, 'a CLI login session id');
export const cliUserCode = z
  .string()
  .regex(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/, 'a user code like WDJB-MJHT');

export const cliSsoStartRequest = z
  .object({
    sessionId: cliSessionId,
    userCode: cliUserCode,
    expiresAt: instant.describe('When the gateway forgets the session (ten minutes after start)'),
  })
  .strict();
export type CliSsoStartRequest = z.infer<typeof cliSsoStartRequest>;

export const cliSsoStartResponse = z
  .object({
    browserUrl: z
      .string()
      .url()
      .max(2048)
      .describe('The activation page the developer opens; it does not carry the user code'),
  })
  .strict();

export const cliSsoPollRequest = z.object({ sessionId: cliSessionId }).strict();

export const cliSsoPollResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal('pending') }).strict(),
  z
    .object({ status: z.literal('denied'), reason: z.enum(['access_denied', 'no_company', 'revoked', 'expired']) })
    .strict(),
  z
    .object({
      status: z.literal('verified'),
      identity: z.object({ subject: z.string().min(1).max(256), email: z.string().email().max(320) }).strict(),
      teams: z
        .array(z.string().min(1).max(128))
        .max(100)
        .describe('The teams this developer may join, as governed by the organization'),
      defaultTeam: z.string().min(1).max(128).nullable(),
      role: z.string().min(1).max(64).describe('The role the organization resolves for this developer'),
      keyLifetimeHours: z.number().int().min(1).max(8760).describe('Lifetime of the key the gateway mints'),
    })
    .strict(),
]);
export type CliSsoPollResponse = z.infer<typeof cliSsoPollResponse>;

/** The support-bundle intake takes at most 1,000,000 bytes, one bundle per deployment per minute. */
export const supportBundleMaxBytes = 1_000_000;

export const supportBundleUpload = z
  .object({
    deploymentId: z.string().min(1).max(128),
    bundle: z
      .record(z.string(), z.unknown())
      .describe('The content-free bundle an administrator reviewed (GET /admin/v1/settings/support-bundle)'),
    note: z.string().max(2000).optional().describe('What the administrator tells support, in their own words'),
  })
  .strict();
export type SupportBundleUpload = z.infer<typeof supportBundleUpload>;

export const supportBundleReceipt = z.object({ receiptId: z.string().min(1).max(128), receivedAt: instant }).strict();
export type SupportBundleReceipt = z.infer<typeof supportBundleReceipt>;

/**
 * The current release of the deployment's release line, with a bounded
 * requirements manifest the gateway checks before an update: the environment variables the release needs and its
 * breaking notes. Null when billing has no manifest for the line.
 */
export const releaseManifest = z
  .object({
    version: z.string().regex(/^\d+\.\d+\.\d+$/, 'a release version like 1.10.360'),
    releasedAt: instant,
    updateClass: z
      .enum(['soft', 'hard'])
      .describe('`soft`: no breaking change, may apply unattended; `hard`: needs an operator'),
    requirements: z
      .object({
        env: z
          .array(z.string().regex(/^[A-Z][A-Z0-9_]{0,127}$/))
          .max(50)
          .describe('Environment variables the release needs set'),
        notes: z.array(z.string().max(500)).max(20).describe('Breaking notes an operator reads before updating'),
      })
      .strict()
      .nullable(),
  })
  .strict();
export type ReleaseManifest = z.infer<typeof releaseManifest>;

export const latestReleaseResponse = z.object({ release: releaseManifest.nullable() }).strict();

/**
 * The organization hub's live identity check (the contract's "Organization hub token checks"; billing's route is not
 * shown there, so it is ours: `POST /v1/org-hub/identity`, deployment bearer). After verifying a hosted
 * identity-provider token the gateway sends only its `sub` and organization id, plus the exact `/mcp/org` URL the
 * token was minted for, so billing can require the resource indicator the operator confirmed. The token itself never
 * leaves the gateway.
 */
export const orgHubIdentityRequest = z
  .object({
    subject: z.string().min(1).max(256),
    organizationId: z.string().min(1).max(256),
    resource: z.string().url().max(2048).describe('This gateway’s exact /mcp/org URL'),
  })
  .strict();
export type OrgHubIdentityRequest = z.infer<typeof orgHubIdentityRequest>;

export const orgHubIdentityResponse = z
  .object({
    status: z.literal('active'),
    email: z.string().email().max(320).describe('The member, as the organization’s directory names them'),
    team: z.string().min(1).max(128).describe('The member’s one governed team'),
  })
  .strict();
export type OrgHubIdentityResponse = z.infer<typeof orgHubIdentityResponse>;

/**
 * Why billing refused a verified token's subject (403): no activated SSO marker, no active connection, not exactly one
 * active membership in the configured organization, a domain outside the allowed list, or a revoked member. Billing
 * answers 503 `org_hub_unconfirmed` until an operator confirmed the organization policy and this resource indicator.
 */
export const orgHubRefusals = [
  'sso_not_activated',
  'no_active_connection',
  'membership_not_unique',
  'domain_not_allowed',
  'member_revoked',
] as const;
export type OrgHubRefusal = (typeof orgHubRefusals)[number];

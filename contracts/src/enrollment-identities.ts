import { z } from 'zod';

/**
 * Billing's roster of the deployment's enrolled identities (`PUT /v1/enrollment-identities`, deployment bearer), and
 * the fleet-mode tenant lookup (`GET /v1/tenant-context`). The specification names both routes and leaves their
 * bodies "not shown"; these shapes are ours and the testkit billing simulator speaks exactly them.
 *
 * Content-free by construction: an identity leaves the gateway as SHA-256 hashes of its address and external id,
 * an allowlisted source and type, its status and role. Never a name, a plain e-mail address, a team, a key or a prompt.
 */

const sha256HexValue = z.string().regex(/^[0-9a-f]{64}$/, 'a lower-case SHA-256 hex digest');
const instant = z.string().datetime({ offset: true });

/** Where billing may learn a roster identity from: only the deployment's own verified directory (inbound SCIM). */
export const enrollmentIdentitySources = ['scim'] as const;
/** A person or a machine account; the identity provider's free-text `userType` is folded into one of these. */
export const enrollmentIdentityTypes = ['human', 'service'] as const;
/** At most this many identities in one request; the gateway sends larger rosters in several. */
export const enrollmentIdentitiesMaxBatch = 100;

export const enrollmentIdentity = z
  .object({
    source: z.enum(enrollmentIdentitySources).describe('Where the gateway verified the identity'),
    type: z.enum(enrollmentIdentityTypes),
    identityHash: sha256HexValue.describe(
      'SHA-256 of the identity’s address (the SCIM userName), trimmed and lower-cased; never the address itself',
    ),
    externalIdHash: sha256HexValue
      .nullable()
      .describe('SHA-256 of the identity provider’s externalId, exactly as sent; null when it sent none'),
    status: z
      .enum(['active', 'inactive', 'removed'])
      .describe('`inactive`: deactivated by the identity provider; `removed`: deleted, or renamed to another address'),
    role: z.enum(['member', 'admin']).describe('`admin`: a member of the SCIM settings’ adminGroup'),
    revision: z
      .number()
      .int()
      .min(1)
      .describe('Grows with every change of this identity; billing keeps the highest it saw, so a replay is harmless'),
    changedAt: instant,
  })
  .strict();
export type EnrollmentIdentity = z.infer<typeof enrollmentIdentity>;

export const enrollmentIdentitiesRequest = z
  .object({
    deploymentId: z.string().min(1).max(128),
    identities: z.array(enrollmentIdentity).min(1).max(enrollmentIdentitiesMaxBatch),
  })
  .strict();
export type EnrollmentIdentitiesRequest = z.infer<typeof enrollmentIdentitiesRequest>;

export const enrollmentIdentitiesResponse = z
  .object({
    recorded: z.number().int().min(0).describe('Identities stored or updated'),
    stale: z.number().int().min(0).describe('Identities ignored because billing already holds a later revision'),
    receivedAt: instant,
  })
  .strict();
export type EnrollmentIdentitiesResponse = z.infer<typeof enrollmentIdentitiesResponse>;

/** `GET /v1/tenant-context?clientKeyHash=…`: the SHA-256 hex of a client key, never the key. */
export const tenantContextQuery = z.object({ clientKeyHash: sha256HexValue }).strict();

export const tenantContextResponse = z
  .object({
    tenantId: z.string().min(1).max(128).describe('The fleet tenant the key belongs to'),
    tenantName: z.string().min(1).max(256),
    deploymentId: z.string().min(1).max(128),
    status: z.enum(['active', 'suspended']),
  })
  .strict();
export type TenantContext = z.infer<typeof tenantContextResponse>;

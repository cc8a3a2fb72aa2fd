import { z } from 'zod';

/**
 * Vendor-delivered checks (the evidence service's policy-push lane, `/admin/v1/fleet/policy-push` on the gateway).
 * A check is a signed envelope: the payload's JSON bytes in base64url and an Ed25519 signature over
 * `gw-delivered-check.v1.` + payload, by a key pinned in the image (`docs/adr/0027-delivered-check-signatures.md`).
 * A delivered check is read-only (one osquery SELECT), monitor-only and never critical, and it can never carry or
 * name a remediation script: the schema has no place for one, and the service refuses a payload that tries.
 */

export const deliveredCheckSigningContext = 'gw-delivered-check.v1.';

/** The envelope as delivered and stored: verified again on every read, never trusted because it is in the store. */
export const signedDeliveredCheck = z
  .object({
    keyId: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a key id'),
    payload: z
      .string()
      .min(1)
      .max(16_384)
      .regex(/^[A-Za-z0-9_-]+$/, 'unpadded base64url')
      .describe('The check’s JSON, base64url; the signature covers these exact characters'),
    signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'an unpadded base64url Ed25519 signature (86 characters)'),
  })
  .strict();
export type SignedDeliveredCheck = z.infer<typeof signedDeliveredCheck>;

export const deliveredCheckPayload = z
  .object({
    v: z.literal(1),
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lower-case letters, digits and dashes')
      .describe('The vendor’s stable id of the check; a later revision of the same id supersedes it'),
    revision: z.number().int().min(1).max(1_000_000_000),
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,127}$/, 'lower-case letters, digits and dashes')
      .describe(
        'The name reports and agents use; the name of an image check makes this check replace it (the image check’s remediation is then suspended)',
      ),
    platform: z.enum(['darwin', 'linux', 'windows']),
    critical: z.literal(false).describe('A delivered check is never critical'),
    mode: z.literal('monitor').describe('A delivered check only observes; it never remediates'),
    description: z.string().min(1).max(500),
    resolution: z.string().min(1).max(1_000),
    query: z.string().min(1).max(4_000).describe('One read-only osquery SELECT'),
    issuedAt: z.string().datetime({ offset: true }),
  })
  .strict();
export type DeliveredCheckPayload = z.infer<typeof deliveredCheckPayload>;

/** At most this many checks in one delivery; a delivery is taken whole or refused whole. */
export const deliveredChecksMaxPerDelivery = 50;

export const deliveredCheckDelivery = z
  .object({ checks: z.array(signedDeliveredCheck).min(1).max(deliveredChecksMaxPerDelivery) })
  .strict();
export type DeliveredCheckDelivery = z.infer<typeof deliveredCheckDelivery>;

/** The audit actor of every delivery, whoever relayed it: the vendor's signature is the authority, not the caller. */
export const policyPushActor = 'gw-policy-push';

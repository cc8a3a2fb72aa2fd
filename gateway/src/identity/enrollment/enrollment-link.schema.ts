import { z } from 'zod';
import { emailAddress } from '../users/email-address.js';

/** Enrollment tokens: `aen_` and 256 random bits, shown once. */
export const enrollmentTokenPrefix = 'aen_';
export const looksLikeEnrollmentToken = (value: string) => /^aen_[A-Za-z0-9_-]{40,64}$/.test(value);

export const enrollmentLinkCreateBody = z.strictObject({
  team: z.string().trim().min(1).max(200).describe('The team every key minted from the link is bound to'),
  user: emailAddress
    .optional()
    .describe('Only this developer may redeem the link; absent, the redeemer names themself'),
  label: z.string().trim().max(200).optional(),
  expiresInHours: z.int().min(1).max(720).default(72).describe('Lifetime of the link, 1..720 hours (default 72)'),
  maxUses: z.int().min(1).max(1_000).default(1).describe('How many keys the link may mint (default 1)'),
});

export const enrollmentLinkStatus = z.enum(['active', 'expired', 'exhausted', 'revoked']);

export const enrollmentLinkRecord = z.object({
  id: z.string(),
  team: z.string(),
  user: z.string().nullable(),
  label: z.string().nullable(),
  tenant: z.string().nullable(),
  maxUses: z.int(),
  uses: z.int(),
  status: enrollmentLinkStatus,
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type EnrollmentLink = z.infer<typeof enrollmentLinkRecord>;

export const enrollmentLinkCreated = z.object({
  link: enrollmentLinkRecord,
  token: z.string().describe('The enrollment token, shown once: the connect CLI presents it to POST /connect/verify'),
});

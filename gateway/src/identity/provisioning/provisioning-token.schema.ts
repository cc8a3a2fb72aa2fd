import { z } from 'zod';

/**
 * What a provisioning token may do. `scim` is the SCIM bearer for `/scim/v2/*` (an identity provider's provisioning
 * client); `enrollment` lets endpoint management read and mint enrollment links on `/admin/v1/enrollment/*` and
 * nothing else on the admin plane. See src/identity/provisioning/README.md.
 */
export const provisioningScopes = ['scim', 'enrollment'] as const;
export type ProvisioningScope = (typeof provisioningScopes)[number];

// Rotation keeps the previous token working for this long unless the caller states otherwise; at most a week.
export const defaultOverlapSeconds = 86_400;
export const maxOverlapSeconds = 7 * 86_400;

export const provisioningTokenCreateBody = z.strictObject({
  label: z.string().trim().min(1).max(200).optional(),
  scopes: z
    .array(z.enum(provisioningScopes))
    .min(1)
    .max(provisioningScopes.length)
    .describe('What the token may do: `scim` (the /scim/v2 bearer), `enrollment` (enrollment links on /admin/v1)'),
});

export const provisioningTokenRotateBody = z
  .strictObject({
    overlapSeconds: z
      .number()
      .int()
      .min(0)
      .max(maxOverlapSeconds)
      .optional()
      .describe('How long the replaced token keeps working; default 86400, 0 refuses it at once'),
  })
  // A POST without a body arrives as null.
  .nullish();

export const provisioningTokenRecord = z.object({
  id: z.string(),
  label: z.string().nullable(),
  scopes: z.array(z.enum(provisioningScopes)),
  tokenPrefix: z.string().describe('First characters of the current token, to tell tokens apart; never enough to use'),
  status: z.enum(['active', 'revoked']),
  createdAt: z.string(),
  createdBy: z.string(),
  rotatedAt: z.string().nullable(),
  previousValidUntil: z
    .string()
    .nullable()
    .describe('Until when the token replaced by the last rotation is still accepted'),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ProvisioningTokenRecord = z.infer<typeof provisioningTokenRecord>;

export const mintedProvisioningTokenResponse = z.object({
  token: z.string().describe('The raw prv_ token, shown once'),
  record: provisioningTokenRecord,
});
export const provisioningTokenListResponse = z.object({ tokens: z.array(provisioningTokenRecord) });
export const provisioningTokenIdParams = z.object({ id: z.string().min(1).max(100) });

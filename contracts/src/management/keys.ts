import { z } from 'zod';
import { keyExpiryRangeMessage, parseKeyExpiry } from './key-expiry.js';

const moneyUsd = z.number().min(0).max(1_000_000_000).describe('US dollars; 0 or absent means unlimited');

export const serviceKeyCreateBody = z.strictObject({
  name: z.string().trim().min(1).max(200).describe('Human-readable name of the non-human identity'),
  team: z.string().trim().min(1).max(200).describe('Team the spend is attributed to'),
  monthlyBudgetUsd: moneyUsd.optional(),
});

export const clientKeyCreateBody = z.strictObject({
  user: z.string().trim().min(1).max(320).describe('User the key attributes to (usually an email)'),
  team: z.string().trim().min(1).max(200),
  label: z.string().max(200).optional(),
  expiresInDays: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .optional()
    .describe('Lifetime; absent means the key does not expire'),
});

/** `POST /admin/v1/keys`: a client key, or a service key when `type: "service"`. */
export const keyCreateBody = z.union([
  clientKeyCreateBody.extend({ type: z.literal('client').optional() }),
  serviceKeyCreateBody.extend({ type: z.literal('service') }),
]);

// The format alone admits instants no store can hold (year 0, year 10000 after a -23:59 offset); stored as UTC.
const keyExpiry = z.iso
  .datetime({ offset: true })
  .refine((value) => parseKeyExpiry(value) !== null, keyExpiryRangeMessage)
  .describe('RFC 3339 date-time with Z or an offset; stored and reported in UTC');

export const keyPatchBody = z
  .strictObject({
    label: z.string().max(200).nullable().optional(),
    name: z.string().trim().min(1).max(200).optional().describe('Service keys only'),
    team: z.string().trim().min(1).max(200).optional(),
    monthlyBudgetUsd: moneyUsd
      .nullable()
      .optional()
      .describe(
        'Service keys only (budgets are enforced on service keys alone); US dollars, 0 or null means unlimited',
      ),
    expiresAt: keyExpiry.nullable().optional(),
  })
  .describe('Omitted fields are kept; null clears. A revoked key cannot be changed (409).');

/** Fields only a service key has: a client key answers 400 naming the field. */
export const serviceKeyOnlyFields = ['name', 'monthlyBudgetUsd'] as const satisfies ReadonlyArray<
  keyof z.infer<typeof keyPatchBody>
>;

export const keyRecord = z.object({
  id: z.string(),
  type: z.enum(['client', 'service']),
  source: z.string().describe('How the key was minted: admin, sso, enrollment, operator'),
  keyPrefix: z.string(),
  user: z.string().nullable(),
  team: z.string(),
  name: z.string().nullable(),
  label: z.string().nullable(),
  monthlyBudgetUsd: z.number().nullable(),
  tenant: z
    .string()
    .nullable()
    .describe('Fleet mode: the tenant of the principal that minted the key; null = a deployment-level key'),
  status: z.enum(['active', 'expired', 'revoked']),
  createdAt: z.string(),
  createdBy: z.string(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  rotatedAt: z.string().nullable(),
});

export type KeyRecord = z.infer<typeof keyRecord>;
export const mintedKeyResponse = z.object({ key: z.string().describe('The raw key, shown once'), record: keyRecord });
export const keyListResponse = z.object({ keys: z.array(keyRecord) });
export const keyIdParams = z.object({ id: z.string().min(1).max(100) });
export const keyListQuery = z.object({ type: z.enum(['client', 'service']).optional() });

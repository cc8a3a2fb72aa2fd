import { z } from 'zod';
import { capabilities, roles } from './admin-access.js';

const scopePattern = /^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*$/;

/** `POST /admin/v1/admin-keys`: exactly one of `caps` or `scopes`; `expiresInDays` (default 90) or `neverExpires`. */
export const adminKeyCreateBody = z
  .strictObject({
    label: z.string().trim().max(200).optional(),
    caps: z
      .array(z.enum(capabilities))
      .min(1)
      .max(capabilities.length)
      .optional()
      .describe('Capability subset (legacy /admin/* and the v1 scopes they translate to)'),
    scopes: z
      .array(z.string().regex(scopePattern))
      .min(1)
      .max(64)
      .optional()
      .describe('Management API v1 scopes (v1 only)'),
    expiresInDays: z.number().int().min(1).max(3650).optional().describe('Lifetime in days; default 90'),
    neverExpires: z.boolean().optional().describe('true opts out of expiry'),
  })
  .refine((body) => (body.caps === undefined) !== (body.scopes === undefined), {
    message: 'exactly one of caps or scopes is required',
    path: ['caps'],
  })
  .refine((body) => !(body.neverExpires === true && body.expiresInDays !== undefined), {
    message: 'expiresInDays and neverExpires: true exclude each other',
    path: ['neverExpires'],
  });
export type AdminKeyCreateBody = z.infer<typeof adminKeyCreateBody>;

export const adminKeyRecord = z.object({
  id: z.string(),
  label: z.string().nullable(),
  keyPrefix: z.string().describe('First characters of the key, to tell keys apart; never enough to use'),
  caps: z.array(z.string()).nullable(),
  scopes: z.array(z.string()).nullable(),
  tenant: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
  createdAt: z.string(),
  createdBy: z.string(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type AdminKeyRecord = z.infer<typeof adminKeyRecord>;

export const mintedAdminKeyResponse = z.object({
  key: z.string().describe('The raw aak_ key, shown once'),
  record: adminKeyRecord,
});
export const adminKeyListResponse = z.object({ keys: z.array(adminKeyRecord) });
export const adminKeyIdParams = z.object({ id: z.string().min(1).max(100) });

/** `GET /admin/v1/me` (and the legacy `/admin/me`): who the caller is and what it may do. */
export const meResponse = z.object({
  actor: z.string().describe('How writes by this caller are attributed: admin-token, apikey:<id>, sso:<email>'),
  kind: z.enum(['admin-token', 'api-key', 'sso']),
  keyId: z.string().nullable(),
  role: z.enum(roles).nullable(),
  tenant: z.string().nullable(),
  deploymentOwner: z.boolean().describe('false for tenant-bound principals in fleet mode'),
  capabilities: z.array(z.enum(capabilities)).describe('Legacy /admin/* capabilities (empty for a scope-minted key)'),
  scopes: z.array(z.string()).describe('Management API v1 scopes'),
});
export type MeResponse = z.infer<typeof meResponse>;

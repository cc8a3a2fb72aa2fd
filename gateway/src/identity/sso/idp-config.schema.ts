import { z } from 'zod';
import { roles } from '../../admin/roles.js';

const claimName = z
  .string()
  .regex(/^[A-Za-z0-9_:./-]{1,128}$/, 'a claim name')
  .describe('An ID-token claim name');
const groupName = z.string().trim().min(1).max(256);

export const claimMapping = z
  .strictObject({
    username: claimName
      .default('email')
      .describe(
        'The claim holding the address matched to the SCIM userName (default email; an email claim must not be unverified)',
      ),
    displayName: claimName.default('name').describe('The claim shown as the signed-in name (default name)'),
  })
  .describe('Which ID-token claims name the user');
export type ClaimMapping = z.infer<typeof claimMapping>;

const role = z.enum(roles);

/** `PUT /admin/idp-config` and `/admin/v1/sso`. */
export const idpConfigPutBody = z.strictObject({
  issuer: z
    .url({ protocol: /^https?$/ })
    .max(512)
    .describe(
      'The OpenID issuer; <issuer>/.well-known/openid-configuration is fetched and checked before anything is saved',
    ),
  clientId: z.string().trim().min(1).max(256).describe('The client id registered at the identity provider'),
  clientSecret: z
    .string()
    .min(8)
    .max(2048)
    .optional()
    .describe('Write-only, sealed at rest and never returned; required the first time, omit to keep the current one'),
  claimMapping: claimMapping.optional(),
  adminRole: role
    .default('owner')
    .describe('The console role of members of the SCIM adminGroup (PUT /admin/v1/sso/scim); default owner'),
  roleGroupMap: z
    .record(groupName, role)
    .refine((map) => Object.keys(map).length <= 100, 'at most 100 groups may map to roles')
    .default({})
    .describe(
      'SCIM group name → console role for members outside the adminGroup; a member of several takes the highest',
    ),
});
export type IdpConfigPut = z.infer<typeof idpConfigPutBody>;

export const idpConfigView = z.object({
  configured: z.boolean().describe('Console sign-in with the identity provider is available'),
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
  clientSecretSet: z.boolean().describe('A client secret is stored (it is never returned)'),
  claimMapping: z.object({ username: z.string(), displayName: z.string() }),
  adminRole: role,
  roleGroupMap: z.record(z.string(), role),
  redirectUri: z.string().describe('The exact redirect URI to register at the identity provider'),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type IdpConfigView = z.infer<typeof idpConfigView>;

export const portalLinkView = z.object({
  configured: z.boolean(),
  signInUrl: z
    .string()
    .describe(
      'Where a browser starts console sign-in: register it as the app tile / initiate-login URI in the identity provider’s portal',
    ),
  redirectUri: z.string().describe('The exact redirect URI to register at the identity provider'),
  issuer: z.string().nullable(),
  clientId: z.string().nullable(),
});

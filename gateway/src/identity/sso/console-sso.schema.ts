import { z } from 'zod';
import { roles } from '../../admin/roles.js';

export const authProbeResponse = z
  .object({
    ssoConfigured: z.boolean().describe('An identity provider is set (PUT /admin/v1/sso)'),
    ssoRequired: z
      .boolean()
      .describe('The console signs people in with the identity provider; the admin token stays a break-glass bearer'),
    signInUrl: z.string().nullable().describe('Where a browser starts sign-in; null when not configured'),
    issuer: z.string().nullable(),
    session: z
      .object({ user: z.string(), role: z.enum(roles) })
      .nullable()
      .describe('The live console session this browser holds, if any'),
  })
  .describe('How the console signs in');

export const signInQuery = z.object({
  returnTo: z
    .string()
    .max(512)
    .regex(/^\/(?![/\\])[^\\]*$/, 'a path on this gateway')
    .optional()
    .describe('Where the browser lands after sign-in: a path on this gateway (default /)'),
});

export const callbackQuery = z.object({
  state: z.string().max(512).optional(),
  code: z.string().max(4096).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
  iss: z.string().max(512).optional(),
  session_state: z.string().max(512).optional(),
});

export const sessionInfo = z
  .object({
    user: z.string().describe('The SCIM userName the session belongs to'),
    role: z.enum(roles).describe('Re-read from the SCIM directory on every request'),
    capabilities: z.array(z.string()),
    createdAt: z.string(),
    expiresAt: z.string().describe('The absolute end of the session'),
    idleExpiresAt: z.string().describe('When the session ends unless used (each use pushes this back)'),
  })
  .describe('The live console session');

export const signOutResponse = z
  .object({
    signedOut: z.boolean().describe('A live session was ended (false: there was none; the cookies are cleared anyway)'),
  })
  .describe('Signed out');

export const consoleErrorResponse = z
  .object({ error: z.object({ code: z.string(), message: z.string() }) })
  .describe(
    'The admin error envelope: sso_callback_invalid, sso_token_invalid, sso_not_admin, csrf_failed, sso_not_configured, identity_provider_unavailable',
  );

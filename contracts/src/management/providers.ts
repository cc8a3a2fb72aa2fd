import { z } from 'zod';
import { providerSlug, providerTypes } from './common.js';

export const providerSlugParams = z.object({ slug: providerSlug });

// Credentials, versions and URLs end up in upstream request headers and URLs: visible ASCII only, so a stray control
// character or line break is a 400 here, not a provider that fails on every call and looks unreachable.
const credential = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII (no spaces, line breaks or control characters)');
const url = z
  .string()
  .max(2048)
  .regex(/^[\x21-\x7e]+$/, 'must be a URL of visible ASCII characters');

/**
 * `PUT /admin/v1/providers/{slug}/key`. `type` defaults to the slug when the slug is a type. A `gw-upstream`
 * provider may also be written in the upstream-gateway spelling: `provider`, `custom_host` (required) and `api_key`
 * (optional, keyless gateways).
 */
export const providerKeyBody = z
  .strictObject({
    type: z.enum(providerTypes).optional(),
    provider: z.literal('gw-upstream').optional().describe('Upstream-gateway spelling of type: gw-upstream'),
    apiKey: credential.optional(),
    baseUrl: url.optional(),
    apiVersion: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, 'an API version is 1-64 letters, digits, dots, dashes and underscores')
      .optional(),
    custom_host: url.optional(),
    api_key: credential.optional(),
  })
  .describe('Provider credential and endpoint; the key is encrypted at rest and never logged');
export type ProviderKeyBody = z.infer<typeof providerKeyBody>;

export const providerSummary = z.object({
  slug: z.string(),
  type: z.enum(providerTypes),
  baseUrl: z.string(),
  apiVersion: z.string().nullable(),
  hasKey: z.boolean(),
  apiKey: z
    .string()
    .nullable()
    .optional()
    .describe('Full key on the credential-grade v1 read; a redacted hint on the legacy read'),
  updatedAt: z.string(),
  updatedBy: z.string(),
});
export type ProviderSummary = z.infer<typeof providerSummary>;

export const providerList = z.object({ providers: z.array(providerSummary) });

import { z } from 'zod';
import {
  ageColumn,
  baseStatusShape,
  gatewayColumn,
  gatewayRef,
  httpsUrl,
  immutable,
  providerSlug,
  readyColumn,
  reasonColumn,
  secretKeyRef,
  withRules,
  type CrdDefinition,
} from './common.js';
import { providerTypes } from '../management/common.js';

/**
 * ProviderKey: one server-held provider credential, applied through `PUT /admin/v1/providers/{slug}/key`
 *. The key is only ever referenced (`secretRef`); an inline key is an unknown field and rejected.
 */

export const providerKeySpec = withRules(
  z
    .object({
      gatewayRef,
      provider: immutable(providerSlug, 'provider').describe('Slug the gateway stores the key under.'),
      type: z.enum(providerTypes).describe('Provider family, which decides the wire format.'),
      baseUrl: httpsUrl.optional().describe('Upstream base URL; required for azure-openai, gw-upstream, openai-compatible.'),
      apiVersion: z
        .string()
        .min(1)
        .max(64)
        .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/)
        .optional()
        .describe('Provider API version (azure-openai).'),
      secretRef: secretKeyRef.describe('Secret key holding the provider credential; rotating it re-applies the key.'),
    })
    .strict(),
  [
    {
      rule: "!(self.type in ['azure-openai', 'gw-upstream', 'openai-compatible']) || has(self.baseUrl)",
      message: 'baseUrl is required for azure-openai, gw-upstream and openai-compatible providers',
      fieldPath: '.baseUrl',
      reason: 'FieldValueRequired',
    },
    {
      rule: "self.type != 'azure-openai' || has(self.apiVersion)",
      message: 'apiVersion is required for azure-openai',
      fieldPath: '.apiVersion',
      reason: 'FieldValueRequired',
    },
  ],
);

export const providerKeyStatus = z
  .object({
    ...baseStatusShape,
    secretVersion: z
      .string()
      .max(128)
      .optional()
      .describe('Fingerprint of the Secret data last applied; a change re-applies the key.'),
  })
  .strict();

export type ProviderKeySpec = z.infer<typeof providerKeySpec>;
export type ProviderKeyStatus = z.infer<typeof providerKeyStatus>;

export const providerKeyCrd: CrdDefinition<typeof providerKeySpec, typeof providerKeyStatus> = {
  kind: 'ProviderKey',
  plural: 'providerkeys',
  singular: 'providerkey',
  shortNames: ['gwpk'],
  description: 'A provider credential the gateway holds server-side, read from a Secret.',
  spec: providerKeySpec,
  status: providerKeyStatus,
  printerColumns: [
    gatewayColumn,
    { name: 'Provider', type: 'string', jsonPath: '.spec.provider' },
    { name: 'Type', type: 'string', jsonPath: '.spec.type' },
    readyColumn,
    reasonColumn,
    ageColumn,
  ],
};

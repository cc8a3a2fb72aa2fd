import { z } from 'zod';
import {
  ageColumn,
  baseStatusShape,
  gatewayColumn,
  gatewayRef,
  readyColumn,
  reasonColumn,
  type CrdDefinition,
} from './common.js';

/**
 * DesktopPolicy: the desktop-client policy, applied with
 * `PUT /admin/v1/policies/claude-desktop`. One per Gateway. The gateway rejects credential-shaped values at
 * every depth; that answer surfaces as a Synced=False condition.
 */

const hostname = z
  .string()
  .min(1)
  .max(253)
  .regex(/^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/);

// Free-form parts of the policy are the gateway's to validate; the CRD bounds their size only.
const freeForm = z.record(z.string(), z.unknown()).meta({ maxProperties: 64 });

export const desktopPolicySettings = z
  .object({
    inferenceModels: z
      .array(z.object({ name: z.string().min(1).max(256) }).strict())
      .max(64)
      .optional(),
    managedMcpServers: freeForm.optional().describe('Managed MCP servers by name (free-form, validated by the gateway).'),
    allowedPluginMarketplaces: z
      .array(z.unknown())
      .max(64)
      .optional()
      .describe('Allowed plugin marketplaces (free-form entries, validated by the gateway).'),
    chatTabEnabled: z.boolean().optional(),
    coworkEgressAllowedHosts: z.array(hostname).max(256).optional(),
  })
  .strict();

export const desktopPolicySpec = z
  .object({
    gatewayRef,
    enabled: z.boolean().describe('Serve this policy to desktop clients.'),
    settings: desktopPolicySettings.default({}),
  })
  .strict();

export const desktopPolicyStatus = z.object(baseStatusShape).strict();

export type DesktopPolicySpec = z.infer<typeof desktopPolicySpec>;
export type DesktopPolicyStatus = z.infer<typeof desktopPolicyStatus>;

export const desktopPolicyCrd: CrdDefinition<typeof desktopPolicySpec, typeof desktopPolicyStatus> = {
  kind: 'DesktopPolicy',
  plural: 'desktoppolicies',
  singular: 'desktoppolicy',
  shortNames: ['gwdp'],
  description: 'The desktop-client policy a Gateway serves.',
  spec: desktopPolicySpec,
  status: desktopPolicyStatus,
  printerColumns: [
    gatewayColumn,
    { name: 'Enabled', type: 'boolean', jsonPath: '.spec.enabled' },
    readyColumn,
    reasonColumn,
    ageColumn,
  ],
};

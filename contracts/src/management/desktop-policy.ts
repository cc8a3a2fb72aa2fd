import { z } from 'zod';

// The desktop-client policy. The free-form parts (managed MCP servers, plugin marketplaces) are bounded in size and
// depth here and checked for credentials by the gateway's write boundary.
export const desktopPolicyLimits = { maxBytes: 64 * 1024, maxDepth: 12 } as const;

const hostname = z
  .string()
  .min(1)
  .max(253)
  .regex(
    /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/,
    'a host name, optionally with a leading "*."',
  );

export const desktopPolicySettings = z
  .strictObject({
    inferenceModels: z
      .array(z.strictObject({ name: z.string().trim().min(1).max(256) }))
      .max(64)
      .optional()
      .describe('Models the desktop client offers, by gateway model name or alias'),
    managedMcpServers: z
      .record(z.string().min(1).max(128), z.unknown())
      .refine((servers) => Object.keys(servers).length <= 64, 'at most 64 managed MCP servers')
      .optional()
      .describe(
        'Managed MCP servers by name (free-form); secrets are referenced as device-side placeholders such as "${GITHUB_TOKEN}", never inlined',
      ),
    allowedPluginMarketplaces: z
      .array(z.unknown())
      .max(64)
      .optional()
      .describe('Allowed plugin marketplaces (free-form entries)'),
    chatTabEnabled: z.boolean().optional().describe('Show the chat tab'),
    coworkEgressAllowedHosts: z.array(hostname).max(256).optional().describe('Hosts cowork sessions may reach'),
  })
  .describe('Desktop-client settings; credential-shaped string values are rejected at every depth');

export type DesktopPolicySettings = z.infer<typeof desktopPolicySettings>;

/** `PUT /admin/claude-desktop-policy` and its v1 twin: the whole policy, replaced. */
export const desktopPolicyPutBody = z.strictObject({
  enabled: z.boolean().describe('Serve the policy to desktop clients; while false the bootstrap endpoint answers 404'),
  settings: desktopPolicySettings.default({}),
  expectedRevision: z
    .int()
    .min(0)
    .optional()
    .describe('Revision the caller last read; a stale value answers 409 and changes nothing'),
});
export type DesktopPolicyPut = z.infer<typeof desktopPolicyPutBody>;

export const desktopPolicyResponse = z.object({
  enabled: z.boolean(),
  settings: desktopPolicySettings,
  revision: z.int().describe('0 until the first write; send as expectedRevision on PUT'),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type DesktopPolicyView = z.infer<typeof desktopPolicyResponse>;

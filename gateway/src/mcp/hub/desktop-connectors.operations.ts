import { z } from 'zod';
import type { McpHubMirror } from './mcp-hub-mirror.js';
import { RemoteMcpClient, RemoteMcpError, RemoteMcpNeedsAuth } from './remote-mcp-client.js';
import type { McpConnectors } from '../oauth/compose-connectors.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';
import { gatewayError } from '../../errors.js';

export interface DesktopConnectorDeps {
  mirror: McpHubMirror;
  connectors: McpConnectors;
  allowPrivate: boolean;
  fetch?: typeof fetch;
}

const probedTools = 100;

const counts = z.object({
  servers: z.int(),
  ok: z.int(),
  needsAuth: z.int(),
  unreachable: z.int(),
  local: z.int().describe('Device-side servers (a command): counted, never reached'),
  tools: z.int(),
});
const mcpHub = z
  .object({
    status: z.enum(['never-synced', 'ok', 'degraded', 'failed']),
    lastSyncAt: z.string().nullable(),
    lastSyncCounts: counts.nullable().describe('Null when the last round reached no server'),
    servers: z.array(
      z.object({
        name: z.string(),
        origin: z.string(),
        outcome: z.enum(['ok', 'needs-auth', 'unreachable']),
        toolCount: z.int(),
        truncated: z.boolean(),
        durationMs: z.int(),
        failure: z.string().optional(),
      }),
    ),
  })
  .describe('Content-free state of the organization hub’s mirror of the remote managed MCP servers');

const connectorBody = z.strictObject({
  name: z.string().min(1).max(128).describe('The connector, by its name in managedMcpServers'),
});
const probeBody = z.strictObject({
  url: z.string().url().max(2048).describe('The MCP server’s streamable-HTTP endpoint (https)'),
});
const probeResponse = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('ok'),
    name: z.string(),
    version: z.string(),
    tools: z.array(z.object({ name: z.string(), title: z.string().optional(), description: z.string().optional() })),
    truncated: z.boolean().describe(`More than ${probedTools} tools: the list is cut`),
  }),
  z.object({
    status: z.literal('needs-auth'),
    resourceMetadata: z.string().nullable().describe('The protected-resource metadata URL the server named, if any'),
  }),
  z.object({
    status: z.literal('unreachable'),
    reason: z.enum(['refused_address', 'timeout', 'network', 'redirect', 'http_error', 'not_mcp', 'too_large']),
    message: z.string(),
  }),
]);

/**
 * The desktop policy's connectors: probe a remote MCP server
 * before adding it (nothing stored), run one mirror round of the organization hub now, and authorize or revoke the
 * hub's own grant for a connector that wants authorization (with it the mirror lists the connector's tools; members'
 * calls still go out under their own grants, `/connect/mcp-oauth/*`).
 */
export function desktopConnectorOperations(deps: DesktopConnectorDeps): AdminOperation[] {
  return [
    defineOperation({
      id: 'desktopPolicy.connectors.probe',
      summary:
        'Probe a remote MCP server: its name, version and tools, whether it needs authorization, or why it cannot be reached; nothing is stored',
      method: 'POST',
      capability: 'desktopconfig:write',
      legacy: [{ path: '/admin/claude-desktop-policy/connectors/probe' }],
      v1: { path: '/admin/v1/policies/claude-desktop/connectors/probe' },
      xScope: 'deployment',
      body: probeBody,
      response: probeResponse,
      handler: async ({ body }) => {
        const client = new RemoteMcpClient({
          url: body.url,
          allowPrivate: deps.allowPrivate,
          ...(deps.fetch ? { fetch: deps.fetch } : {}),
        });
        try {
          const server = await client.initialize();
          const listed = await client.listTools(probedTools);
          return {
            status: 'ok' as const,
            ...server,
            tools: listed.tools.map(({ name, title, description }) => ({
              name,
              ...(title ? { title } : {}),
              ...(description ? { description } : {}),
            })),
            truncated: listed.truncated,
          };
        } catch (error) {
          if (error instanceof RemoteMcpNeedsAuth)
            return { status: 'needs-auth' as const, resourceMetadata: error.resourceMetadata };
          if (error instanceof RemoteMcpError)
            return { status: 'unreachable' as const, reason: error.failure, message: error.message };
          throw error;
        }
      },
    }),
    defineOperation({
      id: 'desktopPolicy.connectors.sync',
      summary: 'Run one mirror round of the organization hub now and answer its content-free status',
      method: 'POST',
      capability: 'desktopconfig:write',
      legacy: [{ path: '/admin/claude-desktop-policy/connectors/sync' }],
      v1: { path: '/admin/v1/policies/claude-desktop/connectors/sync' },
      xScope: 'deployment',
      response: z.object({ mcpHub }),
      handler: async () => ({ mcpHub: await deps.mirror.sync() }),
    }),
    defineOperation({
      id: 'desktopPolicy.connectors.authorize',
      summary:
        'Start the hub’s own authorization of a connector: the vendor’s authorization URL (no token is ever returned)',
      method: 'POST',
      capability: 'desktopconfig:write',
      legacy: [{ path: '/admin/claude-desktop-policy/connectors/authorize' }],
      v1: { path: '/admin/v1/policies/claude-desktop/connectors/authorize' },
      xScope: 'deployment',
      body: connectorBody,
      response: z.object({ authorizationUrl: z.string() }),
      handler: async ({ body, request }) => ({
        authorizationUrl: await deps.connectors.authorizer.start(
          { kind: 'hub' },
          body.name,
          `${request.protocol}://${request.host}`,
        ),
      }),
    }),
    defineOperation({
      id: 'desktopPolicy.connectors.revoke',
      summary:
        'Remove the hub’s stored grant for a connector; answers once it is gone and the mirror dropped its tools',
      method: 'POST',
      capability: 'desktopconfig:write',
      legacy: [{ path: '/admin/claude-desktop-policy/connectors/revoke' }],
      v1: { path: '/admin/v1/policies/claude-desktop/connectors/revoke' },
      xScope: 'deployment',
      body: connectorBody,
      response: z.object({ state: z.literal('needs-auth'), outcome: z.literal('hub-grant-removed') }),
      handler: async ({ body }) => {
        if (!(await deps.connectors.grants.remove({ kind: 'hub' }, body.name)))
          throw gatewayError('grant_not_found', `The hub holds no grant for ${JSON.stringify(body.name)}.`);
        await deps.mirror.sync();
        return { state: 'needs-auth' as const, outcome: 'hub-grant-removed' as const };
      },
    }),
    defineOperation({
      id: 'desktopPolicy.connectors.status',
      summary: 'The organization hub mirror’s last round (content-free)',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/claude-desktop-policy/connectors' }],
      v1: { path: '/admin/v1/policies/claude-desktop/connectors' },
      xScope: 'deployment',
      response: z.object({ mcpHub }),
      handler: async () => ({ mcpHub: deps.mirror.status() }),
    }),
  ];
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '@gw/platform';
import { z } from 'zod';
import type { AuditStore } from '../../admin/audit/audit.store.js';
import { identityOf } from '../../chain/identity/identity-of.js';
import type { ConnectorAuthorizer } from '../../mcp/oauth/connector-authorizer.js';
import { claimCodeLength } from '../../mcp/oauth/mcp-oauth-flows.js';
import { connectErrorResponse } from './connect.schema.js';
import { gatewayError } from '../../errors.js';

export interface ConnectMcpOAuthOptions {
  authorizer: ConnectorAuthorizer;
  audit: AuditStore;
}

const connectorName = z.string().min(1).max(128);
const authorizeBody = z
  .strictObject({
    name: connectorName.describe('The remote MCP server, by its name in the desktop policy’s managedMcpServers'),
    loopbackPort: z
      .int()
      .min(1024)
      .max(65535)
      .optional()
      .describe(
        'The CLI’s listener on 127.0.0.1; with it the callback redirects there instead of showing the claim code',
      ),
    loopbackNonce: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, '43 base64url characters')
      .optional(),
  })
  .refine((body) => (body.loopbackPort === undefined) === (body.loopbackNonce === undefined), {
    message: 'loopbackPort and loopbackNonce go together',
    path: ['loopbackNonce'],
  });
const completeBody = z.strictObject({
  name: connectorName,
  claimCode: z
    .string()
    .length(claimCodeLength)
    .regex(/^[A-Za-z0-9]+$/, 'letters and digits'),
});

const developerOnly = () => gatewayError('developer_required');

/**
 * A developer authorizes one of the organization hub's connectors for themselves (the contract
 * `/connect/mcp-oauth/authorize` and `/complete`): the gateway runs the OAuth flow as the client, the browser signs in
 * at the connector's authorization server, and the CLI claims the result with the code the callback showed (or sent
 * to its loopback listener). Their calls through `/mcp/org` then go out under that grant.
 */
export async function connectMcpOAuthRoutes(plain: FastifyInstance, options: ConnectMcpOAuthOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const developerOf = (identity: ReturnType<typeof identityOf>) => {
    // Service keys never get here (the connect scope refuses them); a key that names no developer has nobody to act as.
    if (identity.user === null) throw developerOnly();
    return identity.user;
  };

  app.post(
    '/connect/mcp-oauth/authorize',
    {
      schema: {
        tags: ['connect'],
        security: [{ clientKey: [] }],
        summary: 'Start authorizing a connector of the organization hub: the URL to open in the browser',
        body: authorizeBody,
        response: {
          200: z.object({ authorizationUrl: z.string(), loopbackPort: z.int().optional() }),
          400: connectErrorResponse,
          401: connectErrorResponse,
          403: connectErrorResponse,
          404: connectErrorResponse,
          502: connectErrorResponse,
        },
      },
    },
    async (request) => {
      const user = developerOf(identityOf(request));
      const body = request.body;
      const loopback =
        body.loopbackPort !== undefined && body.loopbackNonce !== undefined
          ? { port: body.loopbackPort, nonce: body.loopbackNonce }
          : undefined;
      const authorizationUrl = await options.authorizer.start(
        { kind: 'user', user },
        body.name,
        `${request.protocol}://${request.host}`,
        loopback,
      );
      return { authorizationUrl, ...(loopback ? { loopbackPort: loopback.port } : {}) };
    },
  );

  app.post(
    '/connect/mcp-oauth/complete',
    {
      schema: {
        tags: ['connect'],
        security: [{ clientKey: [] }],
        summary: 'Claim a finished connector authorization with its 12-character claim code',
        body: completeBody,
        response: {
          200: z.object({ status: z.literal('ok'), user: z.string() }),
          400: connectErrorResponse,
          401: connectErrorResponse,
          403: connectErrorResponse,
          404: connectErrorResponse,
        },
      },
    },
    async (request) => {
      const identity = identityOf(request);
      const user = developerOf(identity);
      const body = request.body;
      await options.authorizer.claim(user, body.name, body.claimCode);
      await options.audit.record({
        category: 'policies',
        action: 'connector.authorized',
        actor: user,
        target: body.name,
        subject: user,
        requestId: request.id,
        outcome: 'success',
        status: 200,
      });
      return { status: 'ok' as const, user };
    },
  );
}

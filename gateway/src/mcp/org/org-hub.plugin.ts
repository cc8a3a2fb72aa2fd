import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { resolveIdentity } from '../../identity/caller.js';
import { extractClientKey } from '../../identity/keys/extract-key.js';
import { looksLikeClientKey } from '../../identity/keys/key-token.js';
import type { KeyStore } from '../../identity/keys/key.store.js';
import type { TeamPolicyStore } from '../../policies/team-policy.store.js';
import type { McpHubMirror } from '../hub/mcp-hub-mirror.js';
import type { McpGrantStore } from '../oauth/mcp-grant.store.js';
import { errorResponse, jsonRpcErrorCodes } from '../json-rpc.js';
import { installMcpErrorHandler } from '../mcp-error-handler.js';
import { serviceKeyRefused } from '../mcp-errors.js';
import { answerMcpPost } from '../mcp-post.js';
import { checkOrigin, headerValue, sendRejection } from '../mcp-transport.js';
import { orgHubErrors } from './org-hub-errors.js';
import type { OrgHubSettings } from './org-hub-settings.js';
import type { OrgMemberResolver } from './org-member-resolver.js';
import { orgToolbox, type OrgCaller } from './org-tools.js';

export interface OrgHubPluginOptions {
  keys: KeyStore;
  teamPolicies: TeamPolicyStore;
  /** The remote servers' tools, relayed as `<server>__<tool>`. */
  mirror: McpHubMirror;
  /** Members' own connector grants, which relayed calls to servers that want authorization go out under. */
  grants: McpGrantStore;
  /** Null when the hosted-identity lane is off: `/mcp/org` then serves client keys only. */
  hub: { settings: OrgHubSettings; members: OrgMemberResolver } | null;
}

const bodyLimitBytes = 1024 * 1024;
const metadataPaths = ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp/org'];
const protectedResourceMetadata = z.object({
  resource: z.string(),
  authorization_servers: z.array(z.string()),
  bearer_methods_supported: z.array(z.string()),
  scopes_supported: z.array(z.string()),
  resource_name: z.string(),
});

/**
 * The organization hub: `/mcp/org`, the same sessionless MCP transport as `/mcp`, serving
 * the organization's shared skills. A client key works and takes precedence; otherwise an access token of the
 * organization's identity provider is verified and its subject checked live with billing. An unauthenticated call is
 * 401 with `WWW-Authenticate: Bearer resource_metadata=…`, which starts an MCP client's OAuth flow.
 */
export async function orgHubPlugin(app: FastifyInstance, options: OrgHubPluginOptions): Promise<void> {
  const { hub } = options;
  for (const url of metadataPaths) {
    app.get(
      url,
      {
        schema: {
          tags: ['retrieval'],
          summary:
            'Protected-resource metadata of the organization hub (RFC 9728): the authorization server that issues its tokens',
          response: {
            200: protectedResourceMetadata,
            404: z.object({ status: z.literal('failure'), code: z.string(), message: z.string() }),
          },
        },
      },
      async (_request, reply) => {
        if (!hub)
          return reply.code(404).send({
            status: 'failure',
            code: 'not_found',
            message: 'This gateway runs no organization identity lane.',
          });
        return {
          resource: hub.settings.resource,
          authorization_servers: [hub.settings.issuer],
          bearer_methods_supported: ['header'],
          scopes_supported: [],
          resource_name: 'gw organization hub',
        };
      },
    );
  }
  app.route({
    method: ['GET', 'DELETE'],
    url: '/mcp/org',
    schema: { tags: ['retrieval'], summary: 'No server-initiated stream and no sessions: always 405' },
    handler: async (_request, reply) =>
      reply
        .code(405)
        .header('allow', 'POST')
        .send(
          errorResponse(null, {
            code: jsonRpcErrorCodes.serverError,
            message: 'Method Not Allowed: POST one JSON-RPC message per request',
          }),
        ),
  });

  await app.register(async (scope) => {
    // Every 401 names where an OAuth client learns how to get a token for this hub.
    installMcpErrorHandler(scope, hub ? `Bearer resource_metadata="${hub.settings.metadataUrl}"` : undefined);
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: bodyLimitBytes }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/mcp/org',
      {
        bodyLimit: bodyLimitBytes,
        schema: {
          tags: ['retrieval'],
          summary: 'Organization hub (MCP streamable HTTP, JSON-RPC 2.0): the organization’s shared skills',
          description:
            'Tools gw_org_skills and gw_org_skill, and the tools of the organization’s remote MCP servers as <server>__<tool>, relayed. A client key (ark_) takes precedence; otherwise an RS256 access token of the organization’s identity provider minted for exactly this URL, whose subject billing admits. ' +
            '401 names the protected-resource metadata; 403 a refused member; 429 a throttle with Retry-After; 503 an identity provider, billing or key-discovery outage (fail closed).',
          security: [{ clientKey: [] }, { orgAccessToken: [] }],
        },
      },
      async (request, reply) => {
        const rejection = checkOrigin(request);
        if (rejection) return sendRejection(reply, rejection);
        const caller = await callerOf(request, options);
        return answerMcpPost(request, reply, orgToolbox(caller, options.teamPolicies, options.mirror, options.grants));
      },
    );
  });
}

/** The caller's team and address: from the client key when one is presented, else from the member billing admits. */
async function callerOf(request: FastifyRequest, options: OrgHubPluginOptions): Promise<OrgCaller> {
  const raw = extractClientKey(request.headers);
  if (raw && looksLikeClientKey(raw)) {
    const identity = await resolveIdentity(options.keys, raw);
    // Service keys are for /v1/* only; the hub serves people.
    if (identity.keyType === 'service') throw serviceKeyRefused();
    return { team: identity.team, user: identity.user };
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(request, 'authorization') ?? '')?.[1];
  if (!bearer) throw orgHubErrors.missingCredential();
  if (!options.hub) throw orgHubErrors.tokenLaneOff();
  const member = await options.hub.members.resolve(bearer, request.ip);
  return { team: member.team, user: member.email };
}

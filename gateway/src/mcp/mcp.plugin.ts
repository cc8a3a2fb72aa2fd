import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '@gw/platform';
import { registerIdentityChain, type IdentityChainDeps } from '../chain/index.js';
import { identityOf } from '../chain/identity/identity-of.js';
import type { RetrievalLeaseStore } from '../optimization/retrieval/lease.store.js';
import type { RetrievalService } from '../optimization/retrieval/retrieval-service.js';
import { errorResponse, jsonRpcErrorCodes } from './json-rpc.js';
import type { McpToolbox } from './mcp-dispatch.js';
import { serviceKeyRefused } from './mcp-errors.js';
import { answerMcpPost } from './mcp-post.js';
import { installMcpErrorHandler } from './mcp-error-handler.js';
import { serverInfo, serverInstructions } from './mcp-protocol.js';
import { callRetrievalTool, type ToolCallContext } from './mcp-tool-call.js';
import { retrievalTools } from '../optimization/retrieval/retrieval-tools.js';
import { checkOrigin, sendRejection } from './mcp-transport.js';

export interface McpPluginOptions {
  chain: IdentityChainDeps;
  retrieval: RetrievalService;
  lease: RetrievalLeaseStore;
  logger: Logger;
}

// MCP client messages are small JSON-RPC envelopes; a megabyte is generous.
const mcpBodyLimitBytes = 1024 * 1024;

const security = [{ clientKey: [] }];

/**
 * `/mcp`, the remote retrieval tool server: streamable HTTP without sessions. One
 * JSON-RPC message per POST, answered with `application/json`; notifications and responses 202 with no body; no
 * `Mcp-Session-Id`, ever; every POST authenticates with the client key through the chain's identity stage.
 */
export async function mcpPlugin(app: FastifyInstance, options: McpPluginOptions): Promise<void> {
  // Outside the identity stage on purpose: the SDK client opens its optional GET stream after the 202 to
  // `notifications/initialized` and accepts exactly 405 as "no stream", whatever its credentials.
  app.route({
    method: ['GET', 'DELETE'],
    url: '/mcp',
    schema: {
      tags: ['retrieval'],
      summary: 'No server-initiated stream and no sessions: always 405',
      description: 'POST JSON-RPC messages to /mcp instead.',
    },
    handler: async (_request, reply) =>
      reply
        .code(405)
        .header('allow', 'POST')
        .send(
          errorResponse(null, {
            code: jsonRpcErrorCodes.serverError,
            message:
              'Method Not Allowed: this server has no event stream and no sessions; POST one JSON-RPC message per request',
          }),
        ),
  });

  await app.register(async (scope) => {
    installMcpErrorHandler(scope);
    // Before identity: a cross-site browser page is refused whatever key it carries.
    scope.addHook('onRequest', async (request, reply) => {
      const rejection = checkOrigin(request);
      if (rejection) return sendRejection(reply, rejection);
    });
    registerIdentityChain(scope, options.chain);
    // Framing errors must come back as JSON-RPC errors, so the body is parsed by the handler, not by fastify.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: mcpBodyLimitBytes }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/mcp',
      {
        bodyLimit: mcpBodyLimitBytes,
        schema: {
          tags: ['retrieval'],
          summary: 'Retrieval tool server (MCP streamable HTTP, JSON-RPC 2.0)',
          description:
            'One JSON-RPC 2.0 message per POST: initialize, ping, tools/list, tools/call (gw_retrieve, gw_recall). Notifications answer 202 with no body; batch arrays answer 400. ' +
            'No session id. Tool failures come back in-band with isError: true. Each accepted message renews the key’s 6-hour retrieval lease.',
          security,
        },
      },
      async (request, reply) => handlePost(request, reply, options),
    );
  });
}

async function handlePost(request: FastifyRequest, reply: FastifyReply, options: McpPluginOptions) {
  const identity = identityOf(request);
  if (identity.keyType === 'service') throw serviceKeyRefused();
  // Any valid /mcp message renews the key's retrieval lease. Best-effort: a Coord hiccup must not fail the tool.
  const renewLease = () =>
    options.lease
      .renew(identity.keyId)
      .catch((error: unknown) => options.logger.warn({ err: error }, 'retrieval lease renewal failed'));
  return answerMcpPost(request, reply, retrievalToolbox({ identity, retrieval: options.retrieval }), renewLease);
}

/** `/mcp`'s tools: the two retrieval tools, for the caller's own stash. */
function retrievalToolbox(context: ToolCallContext): McpToolbox {
  return {
    serverInfo,
    instructions: serverInstructions,
    tools: retrievalTools,
    call: (name, input) => callRetrievalTool(name as 'gw_retrieve' | 'gw_recall', input, context),
  };
}

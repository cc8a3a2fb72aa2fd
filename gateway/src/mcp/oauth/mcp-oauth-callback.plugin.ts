import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError, normalizeRequestError, type ZodTypeProvider } from '@gw/platform';
import type { McpHubMirror } from '../hub/mcp-hub-mirror.js';
import { callbackPath, type ConnectorAuthorizer } from './connector-authorizer.js';

export interface McpOAuthCallbackOptions {
  authorizer: ConnectorAuthorizer;
  mirror: McpHubMirror;
}

const callbackQuery = z.looseObject({
  state: z.string().max(256).optional(),
  code: z.string().max(4096).optional(),
  error: z.string().max(256).optional(),
});

/**
 * Where connectors' authorization servers send the browser back (public: the browser carries no key; the one-time
 * `state` is the credential). A developer's flow shows the claim code as text, or redirects to the CLI's loopback
 * listener with the code and the hash of its nonce; the hub's flow is finished here and the mirror runs a round.
 */
export async function mcpOAuthCallbackPlugin(plain: FastifyInstance, options: McpOAuthCallbackOptions): Promise<void> {
  const app = plain.withTypeProvider<ZodTypeProvider>();
  app.setErrorHandler(async (thrown, _request, reply) => {
    const failure = normalizeRequestError(thrown);
    const message =
      failure.error instanceof AppError ? failure.message : 'The authorization could not be finished; start again.';
    return reply
      .code(failure.status)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(`${message}\n`);
  });
  app.get(
    callbackPath,
    {
      schema: {
        tags: ['connect'],
        summary: 'OAuth redirect target of connector authorizations (browser)',
        querystring: callbackQuery,
      },
    },
    async (request, reply) => {
      const outcome = await options.authorizer.finish(request.query);
      void reply.header('cache-control', 'no-store');
      if (outcome.kind === 'hub') {
        options.mirror.sync().catch(() => undefined);
        return reply
          .type('text/plain; charset=utf-8')
          .send(`The organization hub is authorized for ${outcome.connector}. You can close this window.\n`);
      }
      if (outcome.loopback) {
        const target = new URL(`http://127.0.0.1:${outcome.loopback.port}/callback`);
        target.searchParams.set('claim', outcome.code);
        target.searchParams.set('nonce', outcome.loopback.nonceHash);
        return reply.code(302).header('location', target.href).send();
      }
      return reply
        .type('text/plain; charset=utf-8')
        .send(`Claim code: ${outcome.code}\nType it into the connect CLI within ten minutes to finish authorizing.\n`);
    },
  );
}

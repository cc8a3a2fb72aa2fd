import type { FastifyInstance } from 'fastify';
import { normalizeRequestError } from '@gw/platform';
import { KeyFailure } from '../errors.js';
import { errorResponse, jsonRpcErrorCodes } from './json-rpc.js';

/**
 * Errors thrown on `/mcp` before or outside the JSON-RPC handler. Key failures use the machine envelope of every
 * client-key surface, with `WWW-Authenticate: Bearer` so the status is well-formed HTTP; the MCP SDK
 * client surfaces that body text in its error, which names the failure and what to do. The realm carries no
 * `resource_metadata`, so OAuth-capable clients do not start an OAuth flow for a key-authenticated server; the
 * organization hub passes a challenge that names its protected-resource metadata, so they do there.
 */
export function installMcpErrorHandler(app: FastifyInstance, challenge = 'Bearer realm="gw"'): void {
  app.setErrorHandler(async (thrown, request, reply) => {
    const failure = normalizeRequestError(thrown);
    if (failure.kind === 'coded') {
      const hint = failure.error instanceof KeyFailure ? { hint: failure.error.hint } : {};
      return reply
        .code(failure.status)
        .headers({ ...failure.headers, ...(failure.status === 401 ? { 'www-authenticate': challenge } : {}) })
        .send({ status: 'failure', code: failure.code, message: failure.message, ...hint });
    }
    if (failure.kind === 'body_too_large')
      return reply
        .code(413)
        .send(errorResponse(null, { code: jsonRpcErrorCodes.serverError, message: 'Request body too large' }));
    if (failure.status < 500)
      return reply
        .code(400)
        .send(errorResponse(null, { code: jsonRpcErrorCodes.invalidRequest, message: 'Invalid Request' }));
    request.log.error({ err: thrown, url: request.url }, 'unhandled MCP error');
    return reply
      .code(500)
      .send(errorResponse(null, { code: jsonRpcErrorCodes.internalError, message: 'Internal error' }));
  });
}

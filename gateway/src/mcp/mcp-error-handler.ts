import type { FastifyInstance } from 'fastify';
import { normalizeRequestError } from '@gw/platform';
import { KeyFailure } from '../errors.js';
import { errorResponse, jsonRpcErrorCodes } from './json-rpc.js';

/**
 * Errors thrown on `/mcp` before or outside the JSON-RPC handler. Key failures use the machine envelope of every
 * client-key surface (spec 000 §7), with `WWW-Authenticate: Bearer` so the status is well-formed HTTP; the MCP SDK
 * client surfaces that body text in its error, which names the failure and what to do. The realm carries no
 * `resource_metadata`, so OAuth-capable clients do not start an OAuth flow for a key-authenticated server.
 */
export function installMcpErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (thrown, request, reply) => {
    const failure = normalizeRequestError(thrown);
    const { error } = failure;
    if (error instanceof KeyFailure) {
      const authenticate: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Bearer realm="gw"' } : {};
      return reply
        .code(error.status)
        .headers({ ...error.headers, ...authenticate })
        .send({ status: 'failure', code: error.code, message: error.message, hint: error.hint });
    }
    if (failure.kind === 'coded') return reply.code(failure.status).headers(failure.headers).send({ status: 'failure', code: failure.code, message: failure.message });
    if (failure.kind === 'body_too_large') return reply.code(413).send(errorResponse(null, { code: jsonRpcErrorCodes.serverError, message: 'Request body too large' }));
    if (failure.status < 500) return reply.code(400).send(errorResponse(null, { code: jsonRpcErrorCodes.invalidRequest, message: 'Invalid Request' }));
    request.log.error({ err: thrown }, 'unhandled /mcp error');
    return reply.code(500).send(errorResponse(null, { code: jsonRpcErrorCodes.internalError, message: 'Internal error' }));
  });
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorResponse, jsonRpcErrorCodes, parseMessage, resultResponse } from './json-rpc.js';
import { dispatchRequest, type McpToolbox } from './mcp-dispatch.js';
import { checkPostHeaders, checkProtocolVersion, sendRejection } from './mcp-transport.js';

/**
 * One POST of MCP streamable HTTP without sessions, for an already authenticated caller: transport headers, one
 * JSON-RPC message, the protocol version, then `accepted` (a side effect of any valid message) and the answer:
 * 202 with no body for a notification or response, 200 with the JSON-RPC result or error for a request.
 */
export async function answerMcpPost(
  request: FastifyRequest,
  reply: FastifyReply,
  toolbox: McpToolbox,
  accepted?: () => Promise<unknown>,
) {
  const headerRejection = checkPostHeaders(request);
  if (headerRejection) return sendRejection(reply, headerRejection);
  const message = parseMessage(typeof request.body === 'string' ? request.body : undefined);
  if (message.kind === 'invalid') {
    // A request with a readable id and bad params is answered like any request; framing errors are HTTP 400.
    const status = message.error.code === jsonRpcErrorCodes.invalidParams ? 200 : 400;
    return reply.code(status).header('cache-control', 'no-store').send(errorResponse(message.id, message.error));
  }
  const versionRejection = checkProtocolVersion(request, message);
  if (versionRejection) return sendRejection(reply, versionRejection);
  await accepted?.();
  if (message.kind !== 'request') return reply.code(202).send();
  const outcome = await dispatchRequest(message.method, message.params, toolbox);
  return reply
    .code(200)
    .header('cache-control', 'no-store')
    .send('error' in outcome ? errorResponse(message.id, outcome.error) : resultResponse(message.id, outcome.result));
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorResponse, jsonRpcErrorCodes, type IncomingMessage, type JsonRpcError } from './json-rpc.js';
import { isSupportedProtocolVersion, supportedProtocolVersions } from './mcp-protocol.js';

export interface TransportRejection {
  status: number;
  error: JsonRpcError;
  headers?: Record<string, string>;
}

const reject = (status: number, message: string): TransportRejection => ({
  status,
  error: { code: jsonRpcErrorCodes.serverError, message },
});

/**
 * MCP streamable HTTP (2025-11-25, transports, security warning): a present Origin that is not this server's own
 * origin answers 403, which stops a browser page on another site from driving the tools. Clients outside a browser
 * send no Origin.
 */
export function checkOrigin(request: FastifyRequest): TransportRejection | null {
  const origin = request.headers.origin;
  if (origin === undefined) return null;
  if (originHost(origin) === request.headers.host) return null;
  return reject(403, `Forbidden: Origin ${origin} may not call this server`);
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * POST checks of the streamable HTTP transport: the body must be `application/json`, and the caller must accept an
 * `application/json` answer (clients send `application/json, text/event-stream`; this server always answers JSON,
 * so a missing Accept or a wildcard range is fine too).
 */
export function checkPostHeaders(request: FastifyRequest): TransportRejection | null {
  if (!acceptsJson(request.headers.accept))
    return reject(406, 'Not Acceptable: this server answers application/json; list it in Accept');
  const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json')
    return reject(415, 'Unsupported Media Type: Content-Type must be application/json');
  return null;
}

function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept
    .split(',')
    .map((range) => range.split(';')[0]?.trim().toLowerCase())
    .some((range) => range === 'application/json' || range === 'application/*' || range === '*/*');
}

/** One header value (the first when repeated). */
export function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** MCP transports: an unsupported `MCP-Protocol-Version` header answers 400 (initialize negotiates instead). */
export function checkProtocolVersion(request: FastifyRequest, message: IncomingMessage): TransportRejection | null {
  const version = headerValue(request, 'mcp-protocol-version');
  if (version === undefined || isSupportedProtocolVersion(version)) return null;
  if (message.kind === 'request' && message.method === 'initialize') return null;
  return {
    status: 400,
    error: {
      code: jsonRpcErrorCodes.serverError,
      message: `Bad Request: unsupported MCP-Protocol-Version ${version} (supported: ${supportedProtocolVersions.join(', ')})`,
    },
  };
}

export function sendRejection(reply: FastifyReply, rejection: TransportRejection) {
  return reply
    .code(rejection.status)
    .headers(rejection.headers ?? {})
    .send(errorResponse(null, rejection.error));
}

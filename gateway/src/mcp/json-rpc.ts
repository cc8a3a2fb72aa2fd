/**
 * JSON-RPC 2.0 framing for `/mcp`. MCP narrows JSON-RPC:
 * ids are strings or numbers, never null, and params are objects.
 */
export type JsonRpcId = string | number;

export const jsonRpcErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** Transport-level rejections (not acceptable, unsupported media type, method not allowed), as the MCP SDK uses. */
  serverError: -32000,
} as const;

export interface JsonRpcError {
  code: number;
  message: string;
}

export type JsonRpcParams = Record<string, unknown>;

export type IncomingMessage =
  | { kind: 'request'; id: JsonRpcId; method: string; params: JsonRpcParams }
  | { kind: 'notification'; method: string }
  | { kind: 'response' }
  | { kind: 'invalid'; id: JsonRpcId | null; error: JsonRpcError };

export function errorResponse(id: JsonRpcId | null, error: JsonRpcError) {
  return { jsonrpc: '2.0' as const, id, error };
}

export function resultResponse(id: JsonRpcId, result: unknown) {
  return { jsonrpc: '2.0' as const, id, result };
}

const invalid = (id: JsonRpcId | null, message: string): IncomingMessage => ({
  kind: 'invalid',
  id,
  error: { code: jsonRpcErrorCodes.invalidRequest, message: `Invalid Request: ${message}` },
});

/** Classify one POST body. Never throws: a body that is not one well-formed message becomes `invalid`. */
export function parseMessage(body: string | undefined): IncomingMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    return {
      kind: 'invalid',
      id: null,
      error: { code: jsonRpcErrorCodes.parseError, message: 'Parse error: the body is not valid JSON' },
    };
  }
  if (Array.isArray(parsed)) return invalid(null, 'batch arrays are not supported; send one JSON-RPC message per POST');
  if (typeof parsed !== 'object' || parsed === null) return invalid(null, 'the body must be a JSON-RPC 2.0 object');
  return classify(parsed as Record<string, unknown>);
}

function classify(message: Record<string, unknown>): IncomingMessage {
  const hasId = 'id' in message;
  const id = isId(message.id) ? message.id : null;
  if (message.jsonrpc !== '2.0') return invalid(id, 'jsonrpc must be "2.0"');
  if (hasId && id === null) return invalid(null, 'id must be a string or a number');
  if (typeof message.method === 'string') {
    const params = message.params;
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
      if (id === null) return invalid(null, 'params must be an object');
      return {
        kind: 'invalid',
        id,
        error: { code: jsonRpcErrorCodes.invalidParams, message: 'Invalid params: params must be an object' },
      };
    }
    if (id === null) return { kind: 'notification', method: message.method };
    return { kind: 'request', id, method: message.method, params: (params as JsonRpcParams | undefined) ?? {} };
  }
  if (id !== null && ('result' in message || 'error' in message)) return { kind: 'response' };
  return invalid(id, 'a message needs a method (request or notification) or a result or error (response)');
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

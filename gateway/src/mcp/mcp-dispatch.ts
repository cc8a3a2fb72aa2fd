import { jsonRpcErrorCodes, type JsonRpcError, type JsonRpcParams } from './json-rpc.js';
import { negotiateProtocolVersion, serverInfo, serverInstructions } from './mcp-protocol.js';
import { callRetrievalTool, type ToolCallContext } from './mcp-tool-call.js';
import { retrievalTools } from './retrieval-tools.js';

export type DispatchResult = { result: unknown } | { error: JsonRpcError };

const invalidParams = (message: string): DispatchResult => ({ error: { code: jsonRpcErrorCodes.invalidParams, message: `Invalid params: ${message}` } });

const toolNames = new Set<string>(retrievalTools.map((tool) => tool.name));

/**
 * The four methods of spec 000 §4.2. Stateless: every message stands alone (no session), so `initialize` is
 * answered whenever it comes and nothing requires it first. Anything else is -32601.
 */
export async function dispatchRequest(method: string, params: JsonRpcParams, context: ToolCallContext): Promise<DispatchResult> {
  switch (method) {
    case 'initialize':
      return initialize(params);
    case 'ping':
      return { result: {} };
    case 'tools/list':
      if (params.cursor !== undefined && typeof params.cursor !== 'string') return invalidParams('cursor must be a string');
      // One page holds both tools: no nextCursor.
      return { result: { tools: retrievalTools } };
    case 'tools/call':
      return toolsCall(params, context);
    default:
      return { error: { code: jsonRpcErrorCodes.methodNotFound, message: `Method not found: ${method}` } };
  }
}

function initialize(params: JsonRpcParams): DispatchResult {
  if (typeof params.protocolVersion !== 'string') return invalidParams('protocolVersion must be a string');
  for (const field of ['capabilities', 'clientInfo'] as const) {
    const value = params[field];
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) return invalidParams(`${field} must be an object`);
  }
  return {
    result: {
      protocolVersion: negotiateProtocolVersion(params.protocolVersion),
      capabilities: { tools: { listChanged: false } },
      serverInfo,
      instructions: serverInstructions,
    },
  };
}

async function toolsCall(params: JsonRpcParams, context: ToolCallContext): Promise<DispatchResult> {
  const { name, arguments: input } = params;
  if (typeof name !== 'string') return invalidParams('name must be a string');
  // An unknown tool is a protocol error (MCP tools, error handling); bad arguments are tool errors, in-band.
  if (!toolNames.has(name)) return invalidParams(`Unknown tool: ${name}`);
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) return invalidParams('arguments must be an object');
  return { result: await callRetrievalTool(name as 'gw_retrieve' | 'gw_recall', input, context) };
}

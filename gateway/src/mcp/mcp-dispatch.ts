import { jsonRpcErrorCodes, type JsonRpcError, type JsonRpcParams } from './json-rpc.js';
import { negotiateProtocolVersion } from './mcp-protocol.js';
import type { ToolResult } from './mcp-tool-call.js';

/** A remote server's `CallToolResult`, relayed as it came (any content blocks, `structuredContent`, `isError`). */
export type RelayedToolResult = Record<string, unknown> & { content: unknown[] };

export type DispatchResult = { result: unknown } | { error: JsonRpcError };

/** What one MCP server offers: who it says it is, and its tools. `/mcp` and `/mcp/org` each have one. */
export interface McpToolbox {
  serverInfo: { name: string; title: string; version: string };
  instructions: string;
  tools: ReadonlyArray<{ name: string }>;
  /** Called only with a listed tool's name; argument problems come back in-band as `isError` results. */
  call(name: string, input: Record<string, unknown> | undefined): Promise<ToolResult | RelayedToolResult>;
}

const invalidParams = (message: string): DispatchResult => ({
  error: { code: jsonRpcErrorCodes.invalidParams, message: `Invalid params: ${message}` },
});

/**
 * The four methods of the contract. Stateless: every message stands alone (no session), so `initialize` is
 * answered whenever it comes and nothing requires it first. Anything else is -32601.
 */
export async function dispatchRequest(
  method: string,
  params: JsonRpcParams,
  toolbox: McpToolbox,
): Promise<DispatchResult> {
  switch (method) {
    case 'initialize':
      return initialize(params, toolbox);
    case 'ping':
      return { result: {} };
    case 'tools/list':
      if (params.cursor !== undefined && typeof params.cursor !== 'string')
        return invalidParams('cursor must be a string');
      // One page holds every tool: no nextCursor.
      return { result: { tools: toolbox.tools } };
    case 'tools/call':
      return toolsCall(params, toolbox);
    default:
      return { error: { code: jsonRpcErrorCodes.methodNotFound, message: `Method not found: ${method}` } };
  }
}

function initialize(params: JsonRpcParams, toolbox: McpToolbox): DispatchResult {
  if (typeof params.protocolVersion !== 'string') return invalidParams('protocolVersion must be a string');
  for (const field of ['capabilities', 'clientInfo'] as const) {
    const value = params[field];
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
      return invalidParams(`${field} must be an object`);
  }
  return {
    result: {
      protocolVersion: negotiateProtocolVersion(params.protocolVersion),
      capabilities: { tools: { listChanged: false } },
      serverInfo: toolbox.serverInfo,
      instructions: toolbox.instructions,
    },
  };
}

async function toolsCall(params: JsonRpcParams, toolbox: McpToolbox): Promise<DispatchResult> {
  const { name, arguments: input } = params;
  if (typeof name !== 'string') return invalidParams('name must be a string');
  // An unknown tool is a protocol error (MCP tools, error handling); bad arguments are tool errors, in-band.
  if (!toolbox.tools.some((tool) => tool.name === name)) return invalidParams(`Unknown tool: ${name}`);
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input)))
    return invalidParams('arguments must be an object');
  return { result: await toolbox.call(name, input as Record<string, unknown> | undefined) };
}

import type { RelayedToolResult } from '../mcp-dispatch.js';
import type { ToolResult } from '../mcp-tool-call.js';
import type { HubTool, McpHubMirror } from './mcp-hub-mirror.js';
import { RemoteMcpError, RemoteMcpNeedsAuth } from './remote-mcp-client.js';

const toolError = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

/**
 * `tools/call` of a mirrored tool: a fresh session with its server, the call under the tool's own name (and, for a
 * server that wants authorization, under the member's own grant, never the hub's), and the server's result relayed as
 * it came. Anything that goes wrong is told to the model in-band.
 */
export async function relayTool(
  mirror: McpHubMirror,
  entry: HubTool,
  input: Record<string, unknown> | undefined,
  bearer: string | null,
): Promise<ToolResult | RelayedToolResult> {
  if (entry.authorized && bearer === null) {
    return toolError(
      `${entry.hubName}: ${entry.server.name} acts as you, and you have not authorized it yet. Authorize it once with the connect CLI (POST /connect/mcp-oauth/authorize {"name": "${entry.server.name}"}), then call this tool again.`,
    );
  }
  try {
    const client = mirror.client(entry.server, bearer);
    await client.initialize();
    const result = (await client.callTool(entry.tool.name, input)) as Partial<RelayedToolResult>;
    if (!Array.isArray(result.content))
      return toolError(`${entry.hubName}: the ${entry.server.name} server answered without content.`);
    return result as RelayedToolResult;
  } catch (error) {
    if (error instanceof RemoteMcpNeedsAuth)
      return toolError(
        `${entry.hubName}: the ${entry.server.name} server now requires authorization; ask an administrator to check the connector.`,
      );
    const reason = error instanceof RemoteMcpError ? error.message : 'the call failed';
    return toolError(
      `${entry.hubName}: the ${entry.server.name} server could not be used (${reason}); try again shortly.`,
    );
  }
}

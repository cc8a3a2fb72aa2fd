import type { Coord } from '@gw/platform';
import { retrievalTools } from '../retrieval/retrieval-tools.js';

type Json = Record<string, unknown>;

// A session that once carried a retrieval marker keeps the tools for its lifetime: a stable tool list keeps the
// provider's prompt cache warm.
const markerTtlMs = 24 * 3_600_000;

function declaredNames(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.map((tool: unknown) => {
    const entry = (tool ?? {}) as Json;
    const fn = (entry.function ?? {}) as Json;
    return typeof fn.name === 'string' ? fn.name : typeof entry.name === 'string' ? entry.name : '';
  });
}

function definitionsFor(format: 'chat-completions' | 'messages'): Json[] {
  return retrievalTools.map((tool) =>
    format === 'messages'
      ? { name: tool.name, description: tool.description, input_schema: tool.inputSchema }
      : {
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
        },
  );
}

/**
 * A handle as the optimizer mints it (`ctx_` and 32 base64url characters, the contract says at least 24), standing
 * alone: `ctx_switch` in a user's prose is not a retrieval marker.
 */
export const handleMarker = /(?<![A-Za-z0-9_-])ctx_[A-Za-z0-9_-]{24,}(?![A-Za-z0-9_-])/;

/**
 * The two retrieval tool definitions are forwarded to the model from the first request of a session
 * that carries a retrieval marker (a `ctx_` handle) onward. Only for a client holding a live retrieval lease (it has
 * the gateway's `/mcp` connected and can execute the calls), and never when the client already declares the tools
 * (an MCP client exposes them under its own prefix, e.g. `mcp__gw__gw_retrieve`).
 */
export async function forwardRetrievalTools(input: {
  coord: Coord;
  sessionId: string | null;
  body: Json;
  format: 'chat-completions' | 'messages';
  clientCanRetrieve: boolean;
}): Promise<Json | null> {
  if (!input.clientCanRetrieve || !input.sessionId) return null;
  const names = declaredNames(input.body.tools);
  if (names.some((name) => name.endsWith('gw_retrieve') || name.endsWith('gw_recall'))) return null;
  const key = `retrieval-marker:${input.sessionId}`;
  let marked = (await input.coord.getValue(key).catch(() => null)) !== null;
  if (!marked && handleMarker.test(JSON.stringify(input.body.messages ?? ''))) {
    marked = true;
    await input.coord.setValue(key, '1', markerTtlMs).catch(() => undefined);
  }
  if (!marked) return null;
  const tools = Array.isArray(input.body.tools) ? (input.body.tools as unknown[]) : [];
  return { ...input.body, tools: [...tools, ...definitionsFor(input.format)] };
}

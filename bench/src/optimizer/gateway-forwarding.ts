import type { OptimizeResponse } from '@gw/contracts';

type Json = Record<string, unknown>;

/**
 * What the gateway forwards after its pre-call hook, as gateway/src/optimization/hook/pre-call-hook.ts (`interpret`) and
 * retrieval-tool-forwarding.ts do it: the optimizer's body only when it reports a saving, and, for a client holding
 * a retrieval lease, the two retrieval tool definitions appended from the first request of the session that carries
 * a `ctx_` marker onward (a one-time change of the tool list, so one full cache write).
 */
export class GatewayForwarding {
  private marked = false;

  constructor(
    private readonly clientCanRetrieve: boolean,
    private readonly format: 'openai-chat' | 'anthropic-messages',
  ) {}

  /** The optimizer's body when it reports a saving, else the client's (pre-call-hook `interpret`). */
  chosen(response: OptimizeResponse, original: Json): Json {
    return response.cacheHit !== true && response.estimatedTokensSaved > 0 ? response.request : original;
  }

  /** The chosen body with the retrieval tools the gateway appends for a leased client once the session is marked. */
  forward(body: Json): Json {
    if (!this.clientCanRetrieve || declaresRetrieval(body.tools)) return body;
    this.marked ||= JSON.stringify(body.messages ?? '').includes('ctx_');
    if (!this.marked) return body;
    const tools = Array.isArray(body.tools) ? (body.tools as unknown[]) : [];
    return { ...body, tools: [...tools, ...retrievalToolsFor(this.format)] };
  }
}

function declaresRetrieval(tools: unknown): boolean {
  if (!Array.isArray(tools)) return false;
  return tools.some((tool: unknown) => {
    const entry = (tool ?? {}) as Json;
    const name =
      typeof (entry.function as Json | undefined)?.name === 'string' ? (entry.function as Json).name : entry.name;
    return typeof name === 'string' && (name.endsWith('gw_retrieve') || name.endsWith('gw_recall'));
  });
}

// Stand-ins of the gateway's definitions (gateway/src/optimization/retrieval/retrieval-tools.ts) with their shape and about their size:
// the benchmark prices them, it does not serve them.
const definitions = [
  {
    name: 'gw_retrieve',
    description:
      'Fetch the original text that the gateway elided from this conversation to save context. Elided content is replaced by a marker naming a handle that starts with "ctx_"; pass that handle. With only the handle you get the whole original, byte for byte. To read less, pass startLine and endLine (1-based, inclusive) for a line range, and/or grep for a case-insensitive literal (not a regex, at most 256 characters) to get matching lines with 3 lines of context, prefixed with line numbers. Handles expire a few hours after they were created; an expired or unknown handle returns an error that says so.',
    inputSchema: {
      type: 'object',
      properties: {
        handle: { type: 'string', description: 'The handle from the elision marker, for example "ctx_3f9a…".' },
        startLine: { type: 'integer', minimum: 1, description: 'First line to return (1-based, inclusive). Optional.' },
        endLine: { type: 'integer', minimum: 1, description: 'Last line to return (1-based, inclusive). Optional.' },
        grep: {
          type: 'string',
          minLength: 1,
          maxLength: 256,
          description: 'Case-insensitive literal text to search for within the range. Optional.',
        },
      },
      required: ['handle'],
      additionalProperties: false,
    },
  },
  {
    name: 'gw_recall',
    description:
      'Search, by words or identifiers, the originals the gateway elided from your recent conversations (for example a test log or a file read earlier) when you no longer have the handle. Returns the best matches, each with its handle, a relevance score, a short preview and the matching line range; pass a handle to gw_retrieve to read the original.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          minLength: 1,
          description: 'What to look for: words, identifiers, file names or error text.',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
];

function retrievalToolsFor(format: 'openai-chat' | 'anthropic-messages'): Json[] {
  return definitions.map((tool) =>
    format === 'anthropic-messages'
      ? { name: tool.name, description: tool.description, input_schema: tool.inputSchema }
      : {
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
        },
  );
}

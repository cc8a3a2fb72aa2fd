import { z } from 'zod';
import { grepMaxChars, grepSchema, handleSchema, lineSchema, recallQuerySchema } from './retrieval.schema.js';

/**
 * The two retrieval tools: the definitions `/mcp` lists, and the same objects the gateway
 * forwards to a model once a session carries a retrieval marker. `inputSchema` is plain JSON Schema, written out so
 * that every provider's function-calling accepts it (no `$schema`, no `$ref`); the zod schemas below validate the
 * arguments a model actually sends, more leniently (numeric strings are accepted for line numbers).
 */
export interface RetrievalToolDefinition {
  name: 'gw_retrieve' | 'gw_recall';
  title: string;
  description: string;
  inputSchema: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required: string[];
    additionalProperties: false;
  };
  annotations: { readOnlyHint: true; destructiveHint: false; idempotentHint: true; openWorldHint: false };
}

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export const gwRetrieveTool: RetrievalToolDefinition = {
  name: 'gw_retrieve',
  title: 'Retrieve elided content',
  description: [
    'Fetch the original text that the gateway elided from this conversation to save context.',
    'Elided content is replaced by a marker naming a handle that starts with "ctx_"; pass that handle.',
    'With only the handle you get the whole original, byte for byte.',
    'To read less, pass startLine and endLine (1-based, inclusive) for a line range, and/or grep for a case-insensitive literal',
    `(not a regex, at most ${grepMaxChars} characters) to get matching lines with 3 lines of context, prefixed with line numbers.`,
    'Handles expire a few hours after they were created; an expired or unknown handle returns an error that says so.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    properties: {
      handle: { type: 'string', description: 'The handle from the elision marker, for example "ctx_3f9a…".' },
      startLine: { type: 'integer', minimum: 1, description: 'First line to return (1-based, inclusive). Optional.' },
      endLine: { type: 'integer', minimum: 1, description: 'Last line to return (1-based, inclusive). Optional.' },
      grep: {
        type: 'string',
        minLength: 1,
        maxLength: grepMaxChars,
        description: 'Case-insensitive literal text to search for within the range. Optional.',
      },
    },
    required: ['handle'],
    additionalProperties: false,
  },
  annotations: readOnly,
};

export const gwRecallTool: RetrievalToolDefinition = {
  name: 'gw_recall',
  title: 'Search elided content',
  description: [
    'Search, by words or identifiers, the originals the gateway elided from your recent conversations',
    '(for example a test log or a file read earlier) when you no longer have the handle.',
    'Returns the best matches, each with its handle, a relevance score, a short preview and the matching line range;',
    'pass a handle to gw_retrieve to read the original.',
  ].join(' '),
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
  annotations: readOnly,
};

/** Both definitions, in the order `tools/list` answers them. */
export const retrievalTools: readonly RetrievalToolDefinition[] = [gwRetrieveTool, gwRecallTool];

// Models sometimes send line numbers as strings; accept "12" as 12 rather than failing the call.
const lineArgument = z.union([lineSchema, z.string().trim().regex(/^\d+$/).transform(Number)]).optional();

export const gwRetrieveArguments = z.object({
  handle: handleSchema,
  startLine: lineArgument,
  endLine: lineArgument,
  grep: grepSchema.optional(),
});
export type GwRetrieveArguments = z.infer<typeof gwRetrieveArguments>;

export const gwRecallArguments = z.object({
  query: recallQuerySchema.refine((value) => value.trim() !== '', 'query must contain a non-whitespace character'),
});
export type GwRecallArguments = z.infer<typeof gwRecallArguments>;

import { z } from 'zod';
import {
  grepSchema,
  handleSchema,
  lineSchema,
  recallMaxK,
  recallQuerySchema,
} from '../../optimization/retrieval/retrieval.schema.js';

/** Bodies and answers of the connect retrieval routes. */

export const connectRetrieveBody = z
  .object({
    handle: handleSchema,
    startLine: lineSchema.optional().describe('1-based inclusive first line; rounded and clamped, never an error.'),
    endLine: lineSchema.optional().describe('1-based inclusive last line; rounded and clamped, never an error.'),
    grep: grepSchema.optional(),
  })
  .describe('A handle, optionally narrowed to a line range and/or a grep.');

export const connectRetrieveResponse = z
  .object({
    status: z.literal('ok'),
    handle: z.string(),
    content: z.string().describe('The original, or the requested lines or grep windows.'),
    partial: z
      .boolean()
      .describe(
        'True when a range or grep narrowed the content. Its presence tells a client the gateway is slice-aware.',
      ),
    totalLines: z.number().int().describe('Lines in the whole original.'),
    totalChars: z.number().int().describe('Characters in the whole original.'),
    startLine: z.number().int().optional().describe('When partial: first line actually searched.'),
    endLine: z.number().int().optional().describe('When partial: last line actually searched.'),
    grepMatches: z.number().int().optional().describe('When grepping: every matching line, rendered or not.'),
    grepTruncated: z.boolean().optional().describe('When grepping: only the first 20 match windows are rendered.'),
  })
  .describe('The stashed original (or a slice of it).');

export const connectRecallBody = z.object({
  query: recallQuerySchema,
  k: z.number().int().min(1).max(recallMaxK).optional().describe('Matches wanted; default 5, at most 20.'),
});

export const connectRecallResponse = z.object({
  status: z.literal('ok'),
  matches: z
    .array(
      z.object({
        handle: z.string(),
        score: z.number().describe('Relevance; higher is better, comparable only within one answer.'),
        preview: z.string().describe('A short excerpt of the best-matching part.'),
        startLine: z.number().int().optional(),
        endLine: z.number().int().optional(),
      }),
    )
    .describe('Best first; empty when nothing matches or recall is unavailable (recall fails open).'),
});

export const connectHeartbeatResponse = z.object({
  status: z.literal('ok'),
  leaseExpiresAt: z.string().describe('When the retrieval lease lapses without another renewal (ISO 8601).'),
  leaseSeconds: z.number().int().describe('Lease length granted by each renewal (21600, six hours).'),
});

export const connectErrorResponse = z
  .object({
    status: z.literal('failure'),
    code: z
      .string()
      .describe(
        'Stable reason code, for example `handle_not_found`, `retrieval_unavailable`, `slice_unsupported`, `key_unknown`.',
      ),
    message: z.string(),
    hint: z.string().optional(),
  })
  .describe('Connect error envelope (the machine envelope of client-key failures).');

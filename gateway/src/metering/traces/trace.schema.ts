import { z } from 'zod';

/** Trace metadata: content-free; `hasContent` says whether the content lane holds a body. */
export const traceRecord = z.object({
  id: z.string(),
  at: z.string(),
  sessionId: z.string().nullable(),
  user: z.string().nullable(),
  team: z.string().nullable(),
  keyId: z.string().nullable(),
  endpoint: z.string(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  status: z.number().int(),
  latencyMs: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  costUsd: z.number(),
  optimizationStatus: z.string().nullable(),
  hasContent: z.boolean(),
});
export type TraceRecord = z.infer<typeof traceRecord>;

const filterText = z.string().min(1).max(320).optional();

export const traceListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().min(1).max(512).optional(),
  user: filterText,
  model: filterText,
  provider: filterText,
  session: filterText,
});
export type TraceListQuery = z.infer<typeof traceListQuery>;
export const tracePage = z.object({ data: z.array(traceRecord), next_cursor: z.string().nullable() });

const facetValues = z.array(z.object({ value: z.string(), count: z.number() }));
export const facetsQuery = z.object({
  days: z.coerce.number().int().min(1).max(90).default(7).describe('Look-back window in days (default 7)'),
});
export const facetsResponse = z.object({
  since: z.string(),
  providers: facetValues,
  models: facetValues,
  teams: facetValues,
  users: facetValues,
  statuses: facetValues,
});

export const sessionsQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50), user: filterText });
export const traceSession = z.object({
  sessionId: z.string(),
  user: z.string().nullable(),
  traces: z.number(),
  firstAt: z.string(),
  lastAt: z.string(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  costUsd: z.number(),
});
export const sessionsResponse = z.object({ sessions: z.array(traceSession) });
export const traceIdParams = z.object({ id: z.string().min(1).max(200) });
export const traceContentResponse = z.object({
  id: z.string(),
  content: z.unknown().describe('The stored request and response bodies'),
});

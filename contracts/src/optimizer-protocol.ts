import { z } from 'zod';

/**
 * Optimizer Protocol v1: the bodies the gateway (or any adapter) and the optimizer exchange.
 * Every field beyond `request` and `decisions` is additive and optional, so objects the optimizer
 * answers with are loose: an adapter ignores what it does not know.
 */

export const optimizerProtocolVersion = 1 as const;

/** A JSON object passed through untouched (a provider request or response body). */
const jsonObject = z.record(z.string(), z.unknown());

/** Attribution and scope, never content. `userId` and `teamId` are never read (cache rule 1). */
export const optimizerMetadataSchema = z
  .looseObject({
    user: z
      .string()
      .optional()
      .describe(
        'Attributed user id. The gateway binds it from the key; partitions the semantic cache, the stash and recall.',
      ),
    team: z.string().optional().describe('Attributed team id; the cache partition when no user is attributed.'),
    tenant: z
      .string()
      .optional()
      .describe(
        'Tenant scope (fleet mode). Absent means the deployment tenant `default`. A per-tenant bearer overrides it.',
      ),
    gatewaySessionId: z
      .string()
      .optional()
      .describe(
        'Session id stamped by the gateway; cache partition of last resort and first source of the holdout session.',
      ),
    sessionId: z.string().optional().describe("Adapter's conversation id (holdout session, after gatewaySessionId)."),
    session: z.string().optional().describe('Alternative spelling of sessionId, read last.'),
    source: z
      .string()
      .optional()
      .describe('Automated caller label (for example `splice`, `console`); excludes the call from regret signals.'),
    modelContextTokens: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Resolved model's context window in tokens, added by the gateway."),
    clientCanRetrieve: z.boolean().optional().describe('Gateway verdict that the client can call gw_retrieve.'),
    billingMode: z.string().optional().describe('Billing lane of the caller, for example `subscription` or `api_key`.'),
    cacheScope: z
      .string()
      .optional()
      .describe(
        'Gateway-bound cache partition: a digest of the resolved route, the billing lane and who may share the entry. When present it replaces the user, team and session as the partition below the tenant.',
      ),
  })
  .describe('Attribution (user, team, tenant, session); never content.');
export type OptimizerMetadata = z.infer<typeof optimizerMetadataSchema>;

/**
 * What the gateway saw of the caller's retrieval that the request body does not show (optimizer README, "Fresh
 * reversible trimming"; docs/adr/0021-fresh-reversible-trimming.md).
 */
export const retrievalDiscoverySchema = z
  .enum(['connector', 'lease_live', 'lease_lapsed', 'none'])
  .describe(
    'The gateway’s verdict on retrieval for this caller, sent only by a gateway that decides qualification for fresh reversible trimming. `connector`: the request carries a hosted connector aimed at the gateway’s own /mcp (retrieval declared directly). `lease_live`: the caller’s deferred tool catalog has authenticated retrieval activity less than 6 hours old (a /connect/mcp-heartbeat, a retrieve, or the first request of a connected session). `lease_lapsed`: a deferred catalog whose last activity is older. `none`: the gateway knows of no retrieval beyond what the body declares. Present (any value): bulky tool outputs of the fresh turn may be compressed behind a `ctx_` handle when the request qualifies (an exact `gw_retrieve` declaration, `connector` or `lease_live`, a callable tool catalog, no forced tool), and the response carries `evidenceClass`. Absent: the fresh turn is forwarded byte for byte.',
  );
export type RetrievalDiscovery = z.infer<typeof retrievalDiscoverySchema>;

/** Why a request did or did not qualify for fresh reversible trimming; the gateway records it on the spend row. */
export const evidenceClassSchema = z
  .enum(['direct', 'deferral_latched', 'unlatched_deferred', 'no_discovery', 'toolless', 'forced_handler'])
  .describe(
    'How the request stands on retrieval: `direct` (the turn declares `gw_retrieve` exactly, or a connector to the gateway’s /mcp), `deferral_latched` (a deferred catalog with a live retrieval lease), `unlatched_deferred` (a deferred catalog whose lease lapsed), `no_discovery` (tools, but no retrieval in sight), `toolless` (no callable tool: none declared or `tool_choice` none), `forced_handler` (`tool_choice` forces one tool other than `gw_retrieve`). Only `direct` and `deferral_latched` qualify for fresh reversible trimming.',
  );
export type EvidenceClass = z.infer<typeof evidenceClassSchema>;

/** Gateway-owned controls, outside the honor-system metadata. */
export const optimizeCapabilitiesSchema = z
  .looseObject({
    canShortCircuit: z
      .boolean()
      .optional()
      .describe('The caller can serve a cache hit inline. False makes every cache key shadow-only.'),
    retrieveEvidence: z
      .boolean()
      .optional()
      .describe('The gateway verified that retrieval is callable for this caller.'),
    terminalTrim: z.boolean().optional().describe('Terminal-output branch of the connect hook; implies singleOutput.'),
    allowIrreversibleWindowFit: z.boolean().optional().describe('Reserved for one-shot batch lines.'),
    providerPromptCache: z
      .boolean()
      .optional()
      .describe('The upstream host caches prompts implicitly regardless of model id.'),
    providerPromptCacheKnown: z.boolean().optional().describe('providerPromptCache is an answer, not a default.'),
    semanticRerank: z.boolean().optional().describe('Semantic rerank permitted.'),
    singleOutput: z
      .boolean()
      .optional()
      .describe('Synthetic request of an intent plus one tool output (connect hook).'),
    agentContinuation: z
      .boolean()
      .optional()
      .describe('Verified Responses continuation transcript; permits handle-free pin replay.'),
    clientContextBudgetTokens: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Client-local context ceiling; the window budget uses the lower of this and the model window.'),
    retrievalDiscovery: retrievalDiscoverySchema.optional(),
  })
  .describe('Gateway-owned controls; never read from metadata.');
export type OptimizeCapabilities = z.infer<typeof optimizeCapabilitiesSchema>;

export const decisionPinSchema = jsonObject.describe(
  'Opaque decision pin; adapters persist the returned array verbatim.',
);
export type DecisionPin = z.infer<typeof decisionPinSchema>;

export const optimizeRequestSchema = z.object({
  endpoint: z
    .string()
    .min(1)
    .describe('Logical route, for example `/v1/chat/completions`; selects per-endpoint config and kill switches.'),
  request: jsonObject.describe('The incoming provider request body to transform.'),
  metadata: optimizerMetadataSchema.optional(),
  enabledKinds: z.array(z.string()).optional().describe('Allow-list narrowing the pipeline to these strategy kinds.'),
  capabilities: optimizeCapabilitiesSchema.optional(),
  pins: z
    .array(decisionPinSchema)
    .optional()
    .describe('Current decision pins; sending the array, even empty, opts the session into pinning.'),
});
export type OptimizeRequest = z.infer<typeof optimizeRequestSchema>;

export const decisionSchema = z
  .looseObject({
    kind: z.string().describe('Strategy kind that made the decision.'),
    summary: z.string().describe('One line saying what changed, never content.'),
    estimatedTokensSaved: z.number().describe('Input tokens saved by this decision.'),
    estimatedSavingsUsd: z.number().describe('List-price estimate of the saving in US dollars.'),
  })
  .describe('One rewrite the optimizer made.');
export type Decision = z.infer<typeof decisionSchema>;

export const suppressionReasonSchema = z.enum([
  'no_retrieve',
  'cache_guard',
  'prefix_stabilizer',
  'regret_guard',
  'pin_thrash',
]);
export const suppressedKindSchema = z.object({ kind: z.string(), reason: suppressionReasonSchema });

export const optimizerFeaturesSchema = z
  .looseObject({
    persistentTranscriptPolicyV1: z.boolean().describe('Legacy assertion kept for v1.10.120 gateways; always true.'),
    agentContinuationV1: z
      .boolean()
      .describe(
        'On optimize: this exact response used the activated handle-free continuation path. On /health: the image supports it.',
      ),
  })
  .describe('Protocol feature assertions.');

export const optimizeResponseSchema = z.looseObject({
  protocolVersion: z.literal(1).describe('Stays 1.'),
  features: optimizerFeaturesSchema,
  optimizationId: z
    .string()
    .describe('Id of this optimization; derived from the request bytes, so an identical request gets the same id.'),
  request: jsonObject.describe('The transformed body; forward this.'),
  decisions: z.array(decisionSchema),
  estimatedTokensSaved: z.number().describe('Sum over decisions.'),
  cacheHit: z
    .boolean()
    .describe(
      'True: serve cachedResponse and skip the provider. An exact normalised match, or a near duplicate differing only in invisible layout within strict limits (optimizer README, "Semantic cache").',
    ),
  cachedResponse: jsonObject.nullable().optional().describe('Present only on a hit.'),
  cacheEligible: z
    .boolean()
    .describe(
      'True: write the live response back via /v1/cache. False (and no cacheKey) when the request has no caller partition.',
    ),
  cacheKey: z.string().optional().describe('Key to use at /v1/cache.'),
  cacheTtlSeconds: z.number().optional().describe('Suggested ttlSeconds for the /v1/cache write.'),
  cacheShadowOnly: z
    .boolean()
    .optional()
    .describe('Present with cacheEligible on a lane that can never serve from cache; send shadowOnly on the write.'),
  cohort: z
    .enum(['holdout', 'treated'])
    .optional()
    .describe('Audited-holdout arm; present when holdout is on and the request is attributable.'),
  cohortKind: z.string().optional().describe('The single strategy withheld on a per-strategy control row.'),
  pins: z
    .array(decisionPinSchema)
    .optional()
    .describe('Present only when the request carried pins: a full replace of the stored list.'),
  suppressedKinds: z.array(suppressedKindSchema),
  strategyTimingsMs: z.record(z.string(), z.number()).describe('Strategy id to milliseconds for strategies that ran.'),
  evidenceClass: evidenceClassSchema
    .optional()
    .describe(
      'Present when the request carried `capabilities.retrievalDiscovery`: the evidence class to record on the spend row.',
    ),
});
export type OptimizeResponse = z.infer<typeof optimizeResponseSchema>;

export const optimizeResponseRequestSchema = z.object({
  endpoint: z.string().min(1),
  request: jsonObject.optional().describe('The request that produced the response (optional context).'),
  response: jsonObject.describe('The provider response to transform; skip streaming responses.'),
  metadata: optimizerMetadataSchema.optional(),
});
export type OptimizeResponseRequest = z.infer<typeof optimizeResponseRequestSchema>;

export const optimizeResponseResponseSchema = z.looseObject({
  protocolVersion: z.literal(1),
  response: jsonObject.describe('The transformed response; return this to the client.'),
  decisions: z.array(decisionSchema),
  cohort: z
    .enum(['holdout', 'treated'])
    .optional()
    .describe(
      'Audited-holdout arm, re-derived from the same metadata as on /v1/optimize; a holdout response is returned untouched.',
    ),
  cohortKind: z.string().optional().describe('The single strategy withheld on a per-strategy control row.'),
});
export type OptimizeResponseResponse = z.infer<typeof optimizeResponseResponseSchema>;

export const cacheWriteRequestSchema = z.object({
  cacheKey: z.string().min(1).describe('Key from the optimize response.'),
  response: jsonObject.describe('The complete response (a streamed one reassembled into one message).'),
  ttlSeconds: z.number().positive().describe('Entry lifetime; clamped to 1 second .. 24 hours.'),
  metadata: optimizerMetadataSchema.optional(),
  shadowOnly: z.boolean().optional().describe('Measurement only: fingerprinted for the shadow tier, never served.'),
  request: jsonObject
    .optional()
    .describe('Required with a per-tenant bearer: the key is re-derived under the authoritative tenant.'),
});
export type CacheWriteRequest = z.infer<typeof cacheWriteRequestSchema>;

export const cacheWriteResponseSchema = z.looseObject({
  ok: z.literal(true),
  stored: z
    .boolean()
    .optional()
    .describe('False when there is no caller partition or the key was not minted for this caller.'),
});

export const ageBucketSchema = z
  .enum(['lt_1m', 'lt_5m', 'lt_30m', 'lt_2h', 'lt_4h', 'lt_12h', 'lt_24h', 'lt_48h', 'gte_48h'])
  .describe('Age of the stash entry; recorded by the gateway, never returned to the client.');
export type AgeBucket = z.infer<typeof ageBucketSchema>;

export const retrieveRequestSchema = z.object({
  handle: z.string().min(1).describe('A `ctx_` handle from an optimized request.'),
  metadata: z
    .looseObject({ source: z.string().optional() })
    .optional()
    .describe('`source` marks automated callers (not a regret signal).'),
  startLine: z.number().optional().describe('1-based inclusive first line; rounded and clamped, never an error.'),
  endLine: z.number().optional().describe('1-based inclusive last line; rounded and clamped, never an error.'),
  grep: z
    .string()
    .optional()
    .describe(
      'Case-insensitive literal (not a regex), whitespace-significant, at most 256 characters; ±3 lines of context; searched within the range.',
    ),
});
export type RetrieveRequest = z.infer<typeof retrieveRequestSchema>;

export const retrieveResponseSchema = z.looseObject({
  handle: z.string(),
  content: z.string().describe('The original, or the requested lines or grep windows.'),
  totalLines: z.number().int().describe('Lines in the whole stashed original.'),
  totalChars: z.number().int().describe('Characters in the whole stashed original.'),
  partial: z.boolean().describe('True when a range or grep narrowed the content.'),
  ageBucket: ageBucketSchema.optional(),
  startLine: z.number().int().optional().describe('When partial: first line actually searched.'),
  endLine: z.number().int().optional().describe('When partial: last line actually searched.'),
  grepMatches: z.number().int().optional().describe('When grepping: every matching line, rendered or not.'),
  grepTruncated: z
    .boolean()
    .optional()
    .describe(
      'When grepping: more than 20 lines matched; only the context windows of the first 20 matches render (overlapping windows merged for display).',
    ),
  nextStartLine: z
    .number()
    .int()
    .optional()
    .describe(
      'When `grepTruncated`: the line of the first match not rendered. Send the same grep with this `startLine` to page on.',
    ),
});
export type RetrieveResponse = z.infer<typeof retrieveResponseSchema>;

export const recallRequestSchema = z.object({
  query: z.string().describe('What to look for, in words or identifiers.'),
  k: z.number().int().positive().optional().describe('Matches wanted; default 5, capped at 20.'),
  metadata: optimizerMetadataSchema.optional().describe('Whose stash to search: only the attributed user’s own rows.'),
});
export type RecallRequest = z.infer<typeof recallRequestSchema>;

export const recallMatchSchema = z.looseObject({
  handle: z.string(),
  score: z.number().describe('Relevance; higher is better, comparable only within one answer.'),
  preview: z.string().describe('A short excerpt of the best-matching part.'),
  startLine: z.number().int().optional().describe('First line of the matching chunk.'),
  endLine: z.number().int().optional().describe('Last line of the matching chunk.'),
});
export const recallResponseSchema = z.looseObject({ matches: z.array(recallMatchSchema) });
export type RecallResponse = z.infer<typeof recallResponseSchema>;

export const recordRequestSchema = z.object({
  id: z.string().min(1).max(200).describe('Idempotency key: a retry upserts the same row.'),
  ts: z.union([z.number(), z.string()]).optional().describe('Epoch milliseconds or ISO 8601; default now.'),
  endpoint: z.string().optional(),
  method: z.string().optional(),
  status: z.number().int().optional(),
  model: z.string().optional(),
  provider: z.string().optional(),
  promptTokens: z.number().int().nonnegative().optional(),
  completionTokens: z.number().int().nonnegative().optional(),
  totalTokens: z.number().int().nonnegative().optional(),
  durationMs: z.number().nonnegative().optional(),
  attribution: z
    .object({ user: z.string().optional(), team: z.string().optional(), sessionId: z.string().optional() })
    .optional(),
  decisions: z.array(z.looseObject({ kind: z.string(), estimatedTokensSaved: z.number().optional() })).optional(),
  content: z
    .object({ input: z.unknown().optional(), output: z.unknown().optional() })
    .optional()
    .describe('Gated by content mode; stored encrypted.'),
});
export type RecordRequest = z.infer<typeof recordRequestSchema>;

export const okResponseSchema = z.looseObject({ ok: z.literal(true) });

/** The optimizer's error body on every non-2xx answer. */
export const optimizerErrorSchema = z.object({
  error: z.object({ code: z.string().describe('Stable machine-readable code.'), message: z.string() }),
});

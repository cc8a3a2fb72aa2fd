import type { FastifyRequest } from 'fastify';
import type { SpendRecord } from '../metering/spend-record.js';
import { costUsd } from '../providers/pricing/cost.js';
import { lookupModel, type ModelFacts } from '../providers/pricing/known-models.js';
import type { Selection } from '../routing/resolve-route.js';
import type { Usage } from '../providers/translate/usage.js';
import { reasoningEffortOf } from '../metering/reasoning-effort.js';
import { propertiesFrom } from '../metering/attribution-properties.js';
import type { InferenceCall } from './run-inference.js';
import { savingsUsd, type Optimization } from '../optimization/hook/pre-call-hook.js';

/** What the handler learned about one call; turned into the spend record in `finally`, so no call goes unrecorded. */
export interface CallOutcome {
  status: number;
  selection: Selection | null;
  usage: Usage | undefined;
  /** `usage` is the gateway's estimate for a stream cut before the provider reported it. */
  usageEstimated?: boolean;
  upstreamMs: number | null;
  firstByteMs: number | null;
  errorCode: string | null;
  stream: boolean;
  /** Upstream tries made (retries and fallbacks included). */
  attempts: number;
  /** Who pays: the organization's key (default), the developer's own subscription, or overflow onto the org key. */
  billingMode?: SpendRecord['billingMode'];
  /** The pre-call hook's outcome; absent on routes the optimizer never sees. */
  optimization?: Optimization;
  /** The gateway session (sticky conversation) this call belongs to, for per-session quality measures. */
  sessionId?: string | null;
}


function attributionOf(request: FastifyRequest, outcome: CallOutcome): SpendRecord['attribution'] {
  const metadata = request.gw.identity?.metadata;
  const properties = propertiesFrom(request.headers);
  const cohort = outcome.optimization?.cohort;
  // The holdout arm travels with the row so quality parity can compare arms (spec 001 §2.8); never content.
  return {
    ...(metadata && Object.keys(metadata).length > 0 ? { metadata } : {}),
    ...(properties ? { properties } : {}),
    ...(cohort ? { optimizer: cohort } : {}),
    ...(outcome.sessionId ? { session: outcome.sessionId } : {}),
  };
}

function tokenCounts(usage: Usage | undefined) {
  const prompt = usage?.inputTokens ?? 0;
  const completion = usage?.outputTokens ?? 0;
  return { prompt, completion, cacheRead: usage?.cacheReadTokens ?? 0, cacheWrite: usage?.cacheWriteTokens ?? 0, reasoning: usage?.reasoningTokens ?? 0 };
}

function callerOf(request: FastifyRequest) {
  const identity = request.gw.identity;
  return { user: identity?.user ?? null, team: identity?.team ?? null, keyId: identity?.keyId ?? null, keyType: identity?.keyType ?? null };
}

function optimizationOf(optimization: Optimization | undefined, model: string | null, modelFacts: Readonly<Record<string, ModelFacts>> | undefined) {
  if (!optimization) return { status: null, reason: null, latencyMs: null, tokensSaved: 0, savingsUsd: 0 };
  return { status: optimization.status, reason: optimization.reason, latencyMs: optimization.latencyMs, tokensSaved: optimization.tokensSaved, savingsUsd: model ? savingsUsd(optimization.tokensSaved, model, modelFacts) : 0 };
}

/**
 * One object literal with every field in its place, read from small fixed-shape helpers, rather than spreads of
 * per-topic objects: this runs for every call, and spreading into a 35-field literal cost more than the rest of it.
 */
export function buildSpendRecord(input: { request: FastifyRequest; call: InferenceCall; outcome: CallOutcome; now: number; id: string; modelFacts?: Readonly<Record<string, ModelFacts>> }): SpendRecord {
  const { request, call, outcome } = input;
  const selection = outcome.selection;
  const model = selection?.model ?? (typeof call.body?.model === 'string' ? call.body.model : null);
  const success = outcome.status >= 200 && outcome.status < 300;
  const usage = outcome.usage;
  const tokens = tokenCounts(usage);
  const caller = callerOf(request);
  const optimization = optimizationOf(outcome.optimization, model, input.modelFacts);
  return {
    id: input.id,
    ts: new Date(request.gw.startedAt).toISOString(),
    endpoint: call.endpoint,
    method: request.method,
    status: outcome.status,
    outcome: success ? 'success' : 'error',
    provider: selection ? selection.provider.slug : null,
    model,
    reasoningEffort: reasoningEffortOf(call.body),
    promptTokens: tokens.prompt,
    completionTokens: tokens.completion,
    totalTokens: tokens.prompt + tokens.completion,
    cacheReadTokens: tokens.cacheRead,
    cacheWriteTokens: tokens.cacheWrite,
    reasoningTokens: tokens.reasoning,
    usageEstimated: outcome.usageEstimated === true,
    latencyMs: Math.max(input.now - request.gw.startedAt, 0),
    upstreamLatencyMs: outcome.upstreamMs,
    timeToFirstByteMs: outcome.stream ? outcome.firstByteMs : null,
    costUsd: usage && model ? costUsd(usage, lookupModel(model, input.modelFacts)) : 0,
    billingMode: outcome.billingMode ?? 'api-key',
    user: caller.user,
    team: caller.team,
    keyId: caller.keyId,
    keyType: caller.keyType,
    attribution: attributionOf(request, outcome),
    stream: outcome.stream,
    optimizationStatus: optimization.status,
    optimizationReason: optimization.reason,
    optimizerLatencyMs: optimization.latencyMs,
    tokensSaved: optimization.tokensSaved,
    savingsUsd: optimization.savingsUsd,
    attempts: Math.max(outcome.attempts, 1),
    target: selection ? `${selection.provider.slug}:${selection.model}` : null,
    errorCode: success ? null : outcome.errorCode,
    traceId: request.traceId,
  };
}

import type { FastifyRequest } from 'fastify';
import type { SpendRecord } from '../metering/spend-record.js';
import { costUsd } from '../pricing/cost.js';
import { lookupModel, type ModelFacts } from '../pricing/known-models.js';
import type { Selection } from '../routing/resolve-route.js';
import type { Usage } from '../translate/usage.js';
import { reasoningEffortOf } from '../metering/reasoning-effort.js';
import type { InferenceCall } from './run-inference.js';
import { savingsUsd, type Optimization } from '../optimizer/pre-call-hook.js';

/** What the handler learned about one call; turned into the spend record in `finally`, so no call goes unrecorded. */
export interface CallOutcome {
  status: number;
  selection: Selection | null;
  usage: Usage | undefined;
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

function optimizationFields(optimization: Optimization | undefined, model: string | null, modelFacts: Readonly<Record<string, ModelFacts>> | undefined) {
  if (!optimization) return { optimizationStatus: null, optimizationReason: null, optimizerLatencyMs: null, tokensSaved: 0, savingsUsd: 0 };
  return {
    optimizationStatus: optimization.status,
    optimizationReason: optimization.reason,
    optimizerLatencyMs: optimization.latencyMs,
    tokensSaved: optimization.tokensSaved,
    savingsUsd: model ? savingsUsd(optimization.tokensSaved, model, modelFacts) : 0,
  };
}

const propertyHeader = /^x-gw-property-([A-Za-z0-9][A-Za-z0-9_.-]{0,63})$/;

/** `x-gw-property-<name>` custom dimensions (spec 000 §4.7), bounded in count and length; never content. */
export function propertiesFrom(headers: FastifyRequest['headers']): Record<string, string> | undefined {
  let properties: Record<string, string> | undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (!name.startsWith('x-gw-property-') || typeof value !== 'string') continue;
    const match = propertyHeader.exec(name);
    if (!match?.[1]) continue;
    properties ??= {};
    if (Object.keys(properties).length >= 16) break;
    properties[match[1]] = value.slice(0, 128);
  }
  return properties;
}

function usageFields(usage: Usage | undefined) {
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  return {
    promptTokens: input,
    completionTokens: output,
    totalTokens: input + output,
    cacheReadTokens: usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: usage?.cacheWriteTokens ?? 0,
    reasoningTokens: usage?.reasoningTokens ?? 0,
  };
}

function identityFields(request: FastifyRequest, outcome: CallOutcome) {
  const optimization = outcome.optimization;
  const identity = request.gw.identity;
  const metadata = identity && Object.keys(identity.metadata).length > 0 ? identity.metadata : undefined;
  const properties = propertiesFrom(request.headers);
  return {
    user: identity?.user ?? null,
    team: identity?.team ?? null,
    keyId: identity?.keyId ?? null,
    keyType: identity?.keyType ?? null,
    // The holdout arm travels with the row so quality parity can compare arms (spec 001 §2.8); never content.
    attribution: { ...(metadata ? { metadata } : {}), ...(properties ? { properties } : {}), ...(optimization?.cohort ? { optimizer: optimization.cohort } : {}), ...(outcome.sessionId ? { session: outcome.sessionId } : {}) },
  };
}

export function buildSpendRecord(input: { request: FastifyRequest; call: InferenceCall; outcome: CallOutcome; now: number; id: string; modelFacts?: Readonly<Record<string, ModelFacts>> }): SpendRecord {
  const { request, call, outcome } = input;
  const selection = outcome.selection;
  const model = selection?.model ?? (typeof call.body?.model === 'string' ? call.body.model : null);
  const success = outcome.status >= 200 && outcome.status < 300;
  return {
    id: input.id,
    ts: new Date(request.gw.startedAt).toISOString(),
    endpoint: call.endpoint,
    method: request.method,
    status: outcome.status,
    outcome: success ? 'success' : 'error',
    provider: selection?.provider.slug ?? null,
    model,
    reasoningEffort: reasoningEffortOf(call.body),
    ...usageFields(outcome.usage),
    latencyMs: Math.max(input.now - request.gw.startedAt, 0),
    upstreamLatencyMs: outcome.upstreamMs,
    timeToFirstByteMs: outcome.stream ? outcome.firstByteMs : null,
    costUsd: outcome.usage && model ? costUsd(outcome.usage, lookupModel(model, input.modelFacts)) : 0,
    billingMode: outcome.billingMode ?? 'api-key',
    ...identityFields(request, outcome),
    stream: outcome.stream,
    ...optimizationFields(outcome.optimization, model, input.modelFacts),
    attempts: Math.max(outcome.attempts, 1),
    target: selection ? `${selection.provider.slug}:${selection.model}` : null,
    errorCode: success ? null : outcome.errorCode,
    traceId: request.traceId,
  };
}

import { isoInstant } from '@gw/platform';
import type { FastifyRequest } from 'fastify';
import type { SpendRecord } from '../metering/spend-record.js';
import { costUsd } from '../providers/pricing/cost.js';
import { lookupModel, type ModelFacts } from '../providers/pricing/known-models.js';
import type { Selection } from '../routing/resolve-route.js';
import type { LaneReport, Relayed } from './lane-report.js';
import type { Usage } from '../providers/translate/usage.js';
import { reasoningEffortOf } from '../metering/reasoning-effort.js';
import { propertiesFrom } from '../metering/attribution-properties.js';
import { savingsUsd, type Optimization } from '../optimization/hook/pre-call-hook.js';

function attributionOf(
  request: FastifyRequest,
  report: Pick<LaneReport, 'optimization' | 'sessionId'>,
): SpendRecord['attribution'] {
  const metadata = request.gw.identity?.metadata;
  const properties = propertiesFrom(request.headers);
  const cohort = report.optimization?.cohort;
  // The holdout arm travels with the row so quality parity can compare arms; never content.
  return {
    ...(metadata && Object.keys(metadata).length > 0 ? { metadata } : {}),
    ...(properties ? { properties } : {}),
    ...(cohort ? { optimizer: cohort } : {}),
    ...(report.sessionId ? { session: report.sessionId } : {}),
  };
}

function tokenCounts(usage: Usage | undefined) {
  const prompt = usage?.inputTokens ?? 0;
  const completion = usage?.outputTokens ?? 0;
  return {
    prompt,
    completion,
    cacheRead: usage?.cacheReadTokens ?? 0,
    cacheWrite: usage?.cacheWriteTokens ?? 0,
    reasoning: usage?.reasoningTokens ?? 0,
  };
}

function callerOf(request: FastifyRequest) {
  const identity = request.gw.identity;
  return {
    user: identity?.user ?? null,
    team: identity?.team ?? null,
    keyId: identity?.keyId ?? null,
    keyType: identity?.keyType ?? null,
  };
}

function optimizationOf(
  optimization: Optimization | undefined,
  model: string | null,
  modelFacts: Readonly<Record<string, ModelFacts>> | undefined,
) {
  if (!optimization) return { status: null, reason: null, latencyMs: null, tokensSaved: 0, savingsUsd: 0 };
  return {
    status: optimization.status,
    reason: optimization.reason,
    latencyMs: optimization.latencyMs,
    tokensSaved: optimization.tokensSaved,
    savingsUsd: model ? savingsUsd(optimization.tokensSaved, model, modelFacts) : 0,
  };
}

/** How a call ended, settled by the metering stage: the relayed answer, or its failure mapped to status and code. */
export interface SettledCall {
  relayed: Relayed;
  /** The target the row names. */
  selection: Selection | null;
}

/**
 * One object literal with every field in its place, read from small fixed-shape helpers, rather than spreads of
 * per-topic objects: this runs for every call, and spreading into a 35-field literal cost more than the rest of it.
 */
export function buildSpendRecord(input: {
  request: FastifyRequest;
  report: LaneReport;
  settled: SettledCall;
  now: number;
  id: string;
  modelFacts?: Readonly<Record<string, ModelFacts>>;
}): SpendRecord {
  const { request, report } = input;
  const { relayed, selection } = input.settled;
  const body = report.call.body;
  const model = selection?.model ?? (typeof body?.model === 'string' ? body.model : null);
  const success = relayed.status >= 200 && relayed.status < 300;
  const usage = relayed.usage;
  const tokens = tokenCounts(usage);
  const caller = callerOf(request);
  const optimization = optimizationOf(report.optimization, model, input.modelFacts);
  return {
    id: input.id,
    ts: isoInstant(request.gw.startedAt),
    endpoint: report.call.endpoint,
    method: request.method,
    status: relayed.status,
    outcome: success ? 'success' : 'error',
    provider: selection ? selection.provider.slug : null,
    model,
    reasoningEffort: reasoningEffortOf(body),
    promptTokens: tokens.prompt,
    completionTokens: tokens.completion,
    totalTokens: tokens.prompt + tokens.completion,
    cacheReadTokens: tokens.cacheRead,
    cacheWriteTokens: tokens.cacheWrite,
    reasoningTokens: tokens.reasoning,
    usageEstimated: relayed.usageEstimated,
    latencyMs: Math.max(input.now - request.gw.startedAt, 0),
    upstreamLatencyMs: report.sent ? Math.max(input.now - report.sent.at, 0) : null,
    timeToFirstByteMs: relayed.stream ? relayed.firstByteMs : null,
    costUsd: usage && model ? costUsd(usage, lookupModel(model, input.modelFacts)) : 0,
    billingMode: report.billingMode,
    user: caller.user,
    team: caller.team,
    keyId: caller.keyId,
    keyType: caller.keyType,
    attribution: attributionOf(request, report),
    stream: relayed.stream,
    optimizationStatus: optimization.status,
    optimizationReason: optimization.reason,
    optimizerLatencyMs: optimization.latencyMs,
    evidenceClass: report.optimization?.evidenceClass ?? null,
    tokensSaved: optimization.tokensSaved,
    savingsUsd: optimization.savingsUsd,
    attempts: Math.max(report.attempts, 1),
    target: selection ? `${selection.provider.slug}:${selection.model}` : null,
    errorCode: success ? null : relayed.errorCode,
    traceId: request.traceId,
  };
}

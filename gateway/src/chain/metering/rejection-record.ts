import { isoInstant } from '@gw/platform';
import type { FastifyRequest } from 'fastify';
import { propertiesFrom } from '../../metering/attribution-properties.js';
import { reasoningEffortOf } from '../../metering/reasoning-effort.js';
import type { SpendRecord } from '../../metering/spend-record.js';
import { endpointOf } from '../admission/applies.js';

/**
 * The content-free spend row of a request refused before any provider was called (admission's denial, a body that
 * did not parse or validate): outcome `rejected`, its status and reason code, no tokens.
 */
export function rejectionRecord(input: {
  request: FastifyRequest;
  denial: { status: number; code: string };
  now: number;
  id: string;
}): SpendRecord {
  const { request, denial } = input;
  const identity = request.gw.identity;
  const body =
    typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)
      ? (request.body as Record<string, unknown>)
      : undefined;
  const metadata = identity && Object.keys(identity.metadata).length > 0 ? identity.metadata : undefined;
  const properties = propertiesFrom(request.headers);
  return {
    id: input.id,
    ts: isoInstant(request.gw.startedAt),
    endpoint: endpointOf(request),
    method: request.method,
    status: denial.status,
    outcome: 'rejected',
    provider: null,
    model: typeof body?.model === 'string' ? body.model.slice(0, 200) : null,
    reasoningEffort: reasoningEffortOf(body),
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    latencyMs: Math.max(input.now - request.gw.startedAt, 0),
    upstreamLatencyMs: null,
    costUsd: 0,
    savingsUsd: 0,
    tokensSaved: 0,
    billingMode: 'none',
    user: identity?.user ?? null,
    team: identity?.team ?? null,
    keyId: identity?.keyId ?? null,
    keyType: identity?.keyType ?? null,
    stream: body?.stream === true,
    optimizationStatus: null,
    optimizationReason: null,
    optimizerLatencyMs: null,
    evidenceClass: null,
    attempts: 0,
    target: null,
    errorCode: denial.code,
    traceId: request.traceId,
    attribution: { ...(metadata ? { metadata } : {}), ...(properties ? { properties } : {}) },
  };
}

import type { Attributes } from '@opentelemetry/api';
import type { SpendRecord } from '../spend-record.js';

/** The GenAI operation a gateway endpoint performs, in the OpenTelemetry semantic conventions' names. */
export function genAiOperation(endpoint: string): string {
  if (endpoint.includes('embeddings')) return 'embeddings';
  if (endpoint === '/v1/completions') return 'text_completion';
  if (endpoint.includes('responses') || endpoint.includes('chat') || endpoint.includes('messages')) return 'chat';
  return 'other';
}

/**
 * A call's span attributes: the GenAI semantic-convention names for what they cover (operation, provider, models,
 * token usage) and `gw.*` for the gateway's own facts (cost, savings, attribution by team and key, never a user's
 * address and never content).
 */
export function spanAttributes(record: SpendRecord): Attributes {
  const attributes: Attributes = {
    'gen_ai.operation.name': genAiOperation(record.endpoint),
    'gen_ai.usage.input_tokens': record.promptTokens,
    'gen_ai.usage.output_tokens': record.completionTokens,
    'http.request.method': record.method,
    'http.response.status_code': record.status,
    'url.path': record.endpoint,
    'gw.outcome': record.outcome,
    'gw.cost_usd': record.costUsd,
    'gw.savings_usd': record.savingsUsd,
    'gw.tokens_saved': record.tokensSaved,
    'gw.billing_mode': record.billingMode,
    'gw.stream': record.stream,
    'gw.attempts': record.attempts,
    'gw.latency_ms': record.latencyMs,
    'gw.spend_id': record.id,
  };
  if (record.provider) attributes['gen_ai.provider.name'] = record.provider;
  if (record.model) {
    attributes['gen_ai.request.model'] = record.model;
    attributes['gen_ai.response.model'] = record.model;
  }
  if (record.reasoningEffort) attributes['gw.reasoning_effort'] = record.reasoningEffort;
  if (record.cacheReadTokens > 0) attributes['gen_ai.usage.cache_read.input_tokens'] = record.cacheReadTokens;
  if (record.cacheWriteTokens > 0) attributes['gen_ai.usage.cache_creation.input_tokens'] = record.cacheWriteTokens;
  if (record.usageEstimated) attributes['gw.usage_estimated'] = true;
  if (record.team) attributes['gw.team'] = record.team;
  if (record.keyId) attributes['gw.key_id'] = record.keyId;
  if (record.target) attributes['gw.target'] = record.target;
  if (record.optimizationStatus) attributes['gw.optimization.status'] = record.optimizationStatus;
  if (record.upstreamLatencyMs !== null) attributes['gw.upstream_latency_ms'] = record.upstreamLatencyMs;
  if (record.errorCode) attributes['error.type'] = record.errorCode;
  else if (record.status >= 500) attributes['error.type'] = String(record.status);
  return attributes;
}

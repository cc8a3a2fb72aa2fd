import { Counter, Histogram, type Registry } from 'prom-client';
import { lookupModel } from '../pricing/known-models.js';
import type { SpendRecord } from './spend-record.js';

/**
 * Inference metrics, named after the OpenTelemetry GenAI conventions where one exists and `gw_` for our own.
 * Labels are bounded: endpoint, provider, model, status class; never user ids.
 */
export class InferenceMetrics {
  readonly requests: Counter<'endpoint' | 'provider' | 'model' | 'status'>;
  readonly duration: Histogram<'endpoint' | 'provider' | 'model'>;
  readonly tokens: Histogram<'gen_ai_token_type' | 'provider' | 'model'>;
  readonly timeToFirstToken: Histogram<'provider' | 'model'>;
  readonly overhead: Histogram<'endpoint'>;
  readonly cost: Counter<'provider' | 'model'>;

  constructor(registry: Registry) {
    this.requests = new Counter({ name: 'gw_requests_total', help: 'Inference requests by endpoint, provider, model and HTTP status.', labelNames: ['endpoint', 'provider', 'model', 'status'], registers: [registry] });
    this.duration = new Histogram({
      name: 'gen_ai_server_request_duration_seconds',
      help: 'Time from receiving an inference request to its last byte.',
      labelNames: ['endpoint', 'provider', 'model'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers: [registry],
    });
    this.tokens = new Histogram({
      name: 'gen_ai_client_token_usage',
      help: 'Tokens per call by type (input, output, cache_read, cache_write).',
      labelNames: ['gen_ai_token_type', 'provider', 'model'],
      buckets: [1, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576],
      registers: [registry],
    });
    this.timeToFirstToken = new Histogram({
      name: 'gen_ai_server_time_to_first_token_seconds',
      help: 'Time from the request to the first streamed byte sent to the client.',
      labelNames: ['provider', 'model'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: [registry],
    });
    this.overhead = new Histogram({
      name: 'gw_overhead_latency_seconds',
      help: 'Time spent in the gateway excluding the upstream call.',
      labelNames: ['endpoint'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
      registers: [registry],
    });
    this.cost = new Counter({ name: 'gw_cost_usd_total', help: 'List-price cost of successful calls in USD.', labelNames: ['provider', 'model'], registers: [registry] });
  }

  observe(record: SpendRecord): void {
    const provider = record.provider ?? 'none';
    // Clients can send any model string; only known models become label values so cardinality stays bounded.
    const model = record.model && lookupModel(record.model) ? record.model : 'other';
    this.requests.inc({ endpoint: record.endpoint, provider, model, status: String(record.status) });
    this.duration.observe({ endpoint: record.endpoint, provider, model }, record.latencyMs / 1000);
    if (record.upstreamLatencyMs !== null) this.overhead.observe({ endpoint: record.endpoint }, Math.max(record.latencyMs - record.upstreamLatencyMs, 0) / 1000);
    if (record.outcome !== 'success') return;
    this.tokens.observe({ gen_ai_token_type: 'input', provider, model }, record.promptTokens);
    this.tokens.observe({ gen_ai_token_type: 'output', provider, model }, record.completionTokens);
    if (record.cacheReadTokens > 0) this.tokens.observe({ gen_ai_token_type: 'cache_read', provider, model }, record.cacheReadTokens);
    if (record.cacheWriteTokens > 0) this.tokens.observe({ gen_ai_token_type: 'cache_write', provider, model }, record.cacheWriteTokens);
    if (record.costUsd > 0) this.cost.inc({ provider, model }, record.costUsd);
  }
}

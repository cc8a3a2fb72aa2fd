import { Counter, Histogram, type Registry } from 'prom-client';
import { lookupModel } from '../pricing/known-models.js';
import { GovernanceMetrics } from './governance-metrics.js';
import { SpendQueueMetrics } from './spend-queue-metrics.js';
import type { SpendRecord } from './spend-record.js';

const latencyBuckets = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * Inference metrics (spec 000 §1.4; documented in README.md), named after the OpenTelemetry GenAI conventions where
 * one exists and `gw_` for our own. Labels are bounded: endpoint, provider, model (known models only), status,
 * reason code; never user ids.
 */
export class InferenceMetrics {
  readonly requests: Counter<'endpoint' | 'provider' | 'model' | 'status'>;
  readonly duration: Histogram<'endpoint' | 'provider' | 'model'>;
  readonly upstreamDuration: Histogram<'provider' | 'model'>;
  readonly tokens: Histogram<'gen_ai_token_type' | 'provider' | 'model'>;
  readonly timeToFirstToken: Histogram<'provider' | 'model'>;
  readonly timePerOutputToken: Histogram<'provider' | 'model'>;
  readonly overhead: Histogram<'endpoint'>;
  readonly cost: Counter<'provider' | 'model'>;
  readonly savings: Counter;
  readonly tokensSaved: Counter;
  readonly rejections: Counter<'code'>;
  readonly optimizer: Counter<'status'>;
  readonly optimizerLatency: Histogram;
  readonly spendQueue: SpendQueueMetrics;
  readonly governance: GovernanceMetrics;

  constructor(registry: Registry) {
    const registers = [registry];
    this.requests = new Counter({ name: 'gw_requests_total', help: 'Inference requests by endpoint, provider, model and HTTP status.', labelNames: ['endpoint', 'provider', 'model', 'status'], registers });
    this.duration = new Histogram({ name: 'gen_ai_server_request_duration_seconds', help: 'Time from receiving an inference request to its last byte.', labelNames: ['endpoint', 'provider', 'model'], buckets: latencyBuckets, registers });
    this.upstreamDuration = new Histogram({ name: 'gen_ai_client_operation_duration_seconds', help: 'Time the provider took: from sending the upstream request to its last byte.', labelNames: ['provider', 'model'], buckets: latencyBuckets, registers });
    this.tokens = new Histogram({
      name: 'gen_ai_client_token_usage',
      help: 'Tokens per call by type (input, output, cache_read, cache_write, reasoning).',
      labelNames: ['gen_ai_token_type', 'provider', 'model'],
      buckets: [1, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576],
      registers,
    });
    this.timeToFirstToken = new Histogram({
      name: 'gen_ai_server_time_to_first_token_seconds',
      help: 'Streams: time from the request to the first byte sent to the client.',
      labelNames: ['provider', 'model'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers,
    });
    this.timePerOutputToken = new Histogram({
      name: 'gen_ai_server_time_per_output_token_seconds',
      help: 'Streams: time per output token after the first one ((duration - TTFT) / (output tokens - 1)).',
      labelNames: ['provider', 'model'],
      buckets: [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 1],
      registers,
    });
    this.overhead = new Histogram({
      name: 'gw_overhead_latency_seconds',
      help: 'Time spent in the gateway excluding the upstream call.',
      labelNames: ['endpoint'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
      registers,
    });
    this.cost = new Counter({ name: 'gw_cost_usd_total', help: 'List-price cost of successful calls in USD.', labelNames: ['provider', 'model'], registers });
    this.savings = new Counter({ name: 'gw_savings_usd_total', help: 'Optimizer savings reported on spend records, in USD.', registers });
    this.tokensSaved = new Counter({ name: 'gw_tokens_saved_total', help: 'Tokens the optimizer removed before forwarding.', registers });
    this.rejections = new Counter({ name: 'gw_rejections_total', help: 'Requests refused by admission, by reason code (402 caps and budgets, 429 limits).', labelNames: ['code'], registers });
    this.optimizer = new Counter({ name: 'gw_optimizer_outcomes_total', help: 'Optimizer pre-call hook outcomes (applied, skipped, disabled, timeout, error).', labelNames: ['status'], registers });
    this.optimizerLatency = new Histogram({ name: 'gw_optimizer_latency_seconds', help: 'Time spent waiting for the optimizer pre-call hook.', buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2], registers });
    this.spendQueue = new SpendQueueMetrics(registry);
    this.governance = new GovernanceMetrics(registry);
  }

  observe(record: SpendRecord): void {
    const provider = record.provider ?? 'none';
    // Clients can send any model string; only known models become label values so cardinality stays bounded.
    const model = record.model && lookupModel(record.model) ? record.model : 'other';
    this.requests.inc({ endpoint: record.endpoint, provider, model, status: String(record.status) });
    this.duration.observe({ endpoint: record.endpoint, provider, model }, record.latencyMs / 1000);
    if (record.outcome === 'rejected') {
      this.rejections.inc({ code: record.errorCode ?? 'unknown' });
      return;
    }
    if (record.upstreamLatencyMs !== null) {
      this.upstreamDuration.observe({ provider, model }, record.upstreamLatencyMs / 1000);
      this.overhead.observe({ endpoint: record.endpoint }, Math.max(record.latencyMs - record.upstreamLatencyMs, 0) / 1000);
    }
    if (record.optimizationStatus) this.optimizer.inc({ status: record.optimizationStatus });
    if (record.optimizerLatencyMs !== null) this.optimizerLatency.observe(record.optimizerLatencyMs / 1000);
    if (record.outcome !== 'success') return;
    this.observeSuccess(record, provider, model);
  }

  private observeSuccess(record: SpendRecord, provider: string, model: string): void {
    const kinds: Array<[string, number]> = [
      ['input', record.promptTokens],
      ['output', record.completionTokens],
      ['cache_read', record.cacheReadTokens],
      ['cache_write', record.cacheWriteTokens],
      ['reasoning', record.reasoningTokens],
    ];
    for (const [kind, count] of kinds) if (count > 0 || kind === 'input' || kind === 'output') this.tokens.observe({ gen_ai_token_type: kind, provider, model }, count);
    if (record.costUsd > 0) this.cost.inc({ provider, model }, record.costUsd);
    if (record.savingsUsd > 0) this.savings.inc(record.savingsUsd);
    if (record.tokensSaved > 0) this.tokensSaved.inc(record.tokensSaved);
    const ttft = record.timeToFirstByteMs;
    if (record.stream && typeof ttft === 'number') {
      this.timeToFirstToken.observe({ provider, model }, ttft / 1000);
      if (record.completionTokens > 1) this.timePerOutputToken.observe({ provider, model }, Math.max(record.latencyMs - ttft, 0) / 1000 / (record.completionTokens - 1));
    }
  }
}

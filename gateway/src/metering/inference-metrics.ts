import type { Registry } from 'prom-client';
import {
  LabeledCounter,
  LabeledHistogram,
  type CounterSeries,
  type HistogramSeries,
} from './metrics/labeled-metrics.js';
import { lookupModel } from '../providers/pricing/known-models.js';
import { GovernanceMetrics } from './governance-metrics.js';
import { SpendQueueMetrics } from './spend-queue-metrics.js';
import type { SpendRecord } from './spend-record.js';

const latencyBuckets = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * Inference metrics, named after the OpenTelemetry GenAI conventions where
 * one exists and `gw_` for our own. Labels are bounded: endpoint, provider, model (known models only), status,
 * reason code; never user ids.
 */
export class InferenceMetrics {
  // Series are held, not looked up by label object per observation (../metrics/labeled-metrics.ts): the labelled ones
  // per label combination in a `SeriesBundle`.
  readonly requests: LabeledCounter<'endpoint' | 'provider' | 'model' | 'status'>;
  readonly duration: LabeledHistogram<'endpoint' | 'provider' | 'model'>;
  readonly upstreamDuration: LabeledHistogram<'provider' | 'model'>;
  readonly tokens: LabeledHistogram<'gen_ai_token_type' | 'provider' | 'model'>;
  readonly timeToFirstToken: LabeledHistogram<'provider' | 'model'>;
  readonly timePerOutputToken: LabeledHistogram<'provider' | 'model'>;
  readonly overhead: LabeledHistogram<'endpoint'>;
  readonly cost: LabeledCounter<'provider' | 'model'>;
  readonly rejections: LabeledCounter<'code'>;
  readonly optimizer: LabeledCounter<'status'>;
  // Unlabelled: their one series is held from the start, and scrapes as 0 before the first call (as prom-client's).
  private readonly savings: CounterSeries;
  private readonly tokensSaved: CounterSeries;
  private readonly optimizerLatency: HistogramSeries;
  readonly spendQueue: SpendQueueMetrics;
  /** Traces the store did not take (`traces/trace-writer.ts`): observability only, never the ledger. */
  readonly tracesDropped: CounterSeries;
  readonly governance: GovernanceMetrics;
  private readonly modelLabels = new Map<string, string>();
  private readonly bundles = new Map<string, SeriesBundle>();

  constructor(registry: Registry) {
    this.requests = new LabeledCounter(registry, {
      name: 'gw_requests_total',
      help: 'Inference requests by endpoint, provider, model and HTTP status.',
      labelNames: ['endpoint', 'provider', 'model', 'status'],
    });
    this.duration = new LabeledHistogram(registry, {
      name: 'gen_ai_server_request_duration_seconds',
      help: 'Time from receiving an inference request to its last byte.',
      labelNames: ['endpoint', 'provider', 'model'],
      buckets: latencyBuckets,
    });
    this.upstreamDuration = new LabeledHistogram(registry, {
      name: 'gen_ai_client_operation_duration_seconds',
      help: 'Time the provider took: from sending the upstream request to its last byte.',
      labelNames: ['provider', 'model'],
      buckets: latencyBuckets,
    });
    this.tokens = new LabeledHistogram(registry, {
      name: 'gen_ai_client_token_usage',
      help: 'Tokens per call by type (input, output, cache_read, cache_write, reasoning).',
      labelNames: ['gen_ai_token_type', 'provider', 'model'],
      buckets: [1, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576],
    });
    this.timeToFirstToken = new LabeledHistogram(registry, {
      name: 'gen_ai_server_time_to_first_token_seconds',
      help: 'Streams: time from the request to the first byte sent to the client.',
      labelNames: ['provider', 'model'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    });
    this.timePerOutputToken = new LabeledHistogram(registry, {
      name: 'gen_ai_server_time_per_output_token_seconds',
      help: 'Streams: time per output token after the first one ((duration - TTFT) / (output tokens - 1)).',
      labelNames: ['provider', 'model'],
      buckets: [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 1],
    });
    this.overhead = new LabeledHistogram(registry, {
      name: 'gw_overhead_latency_seconds',
      help: 'Time spent in the gateway excluding the upstream call.',
      labelNames: ['endpoint'],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
    });
    this.cost = new LabeledCounter(registry, {
      name: 'gw_cost_usd_total',
      help: 'List-price cost of successful calls in USD.',
      labelNames: ['provider', 'model'],
    });
    this.savings = new LabeledCounter(registry, {
      name: 'gw_savings_usd_total',
      help: 'Optimizer savings reported on spend records, in USD.',
      labelNames: [],
    }).series({});
    this.tokensSaved = new LabeledCounter(registry, {
      name: 'gw_tokens_saved_total',
      help: 'Tokens the optimizer removed before forwarding.',
      labelNames: [],
    }).series({});
    this.rejections = new LabeledCounter(registry, {
      name: 'gw_rejections_total',
      help: 'Requests refused by admission, by reason code (402 caps and budgets, 429 limits).',
      labelNames: ['code'],
    });
    this.optimizer = new LabeledCounter(registry, {
      name: 'gw_optimizer_outcomes_total',
      help: 'Optimizer pre-call hook outcomes (applied, skipped, disabled, timeout, error).',
      labelNames: ['status'],
    });
    this.optimizerLatency = new LabeledHistogram(registry, {
      name: 'gw_optimizer_latency_seconds',
      help: 'Time spent waiting for the optimizer pre-call hook.',
      labelNames: [],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2],
    }).series({});
    this.spendQueue = new SpendQueueMetrics(registry);
    this.tracesDropped = new LabeledCounter(registry, {
      name: 'gw_traces_dropped_total',
      help: 'Call traces whose sealed content was not written to gw_traces (store refused the batch, or the buffer was full).',
      labelNames: [],
    }).series({});
    this.governance = new GovernanceMetrics(registry);
  }

  observe(record: SpendRecord): void {
    const series = this.bundleFor(
      record.endpoint,
      record.provider ?? 'none',
      this.modelLabel(record.model),
      record.status,
    );
    series.requests.inc();
    series.duration.observe(record.latencyMs / 1000);
    if (record.outcome === 'rejected') {
      this.rejections.inc({ code: record.errorCode ?? 'unknown' });
      return;
    }
    if (record.upstreamLatencyMs !== null) {
      series.upstream().observe(record.upstreamLatencyMs / 1000);
      series.overhead().observe(Math.max(record.latencyMs - record.upstreamLatencyMs, 0) / 1000);
    }
    if (record.optimizationStatus) this.optimizer.inc({ status: record.optimizationStatus });
    if (record.optimizerLatencyMs !== null) this.optimizerLatency.observe(record.optimizerLatencyMs / 1000);
    if (record.outcome !== 'success') return;
    this.observeSuccess(record, series);
  }

  private observeSuccess(record: SpendRecord, series: SeriesBundle): void {
    series.tokens('input').observe(record.promptTokens);
    series.tokens('output').observe(record.completionTokens);
    if (record.cacheReadTokens > 0) series.tokens('cache_read').observe(record.cacheReadTokens);
    if (record.cacheWriteTokens > 0) series.tokens('cache_write').observe(record.cacheWriteTokens);
    if (record.reasoningTokens > 0) series.tokens('reasoning').observe(record.reasoningTokens);
    if (record.costUsd > 0) series.cost().inc(record.costUsd);
    if (record.savingsUsd > 0) this.savings.inc(record.savingsUsd);
    if (record.tokensSaved > 0) this.tokensSaved.inc(record.tokensSaved);
    const ttft = record.timeToFirstByteMs;
    if (record.stream && typeof ttft === 'number') {
      series.timeToFirstToken().observe(ttft / 1000);
      if (record.completionTokens > 1)
        series
          .timePerOutputToken()
          .observe(Math.max(record.latencyMs - ttft, 0) / 1000 / (record.completionTokens - 1));
    }
  }

  /** Label value of a model: clients can send any string, only known models become label values (bounded). */
  private modelLabel(model: string | null): string {
    if (!model) return 'other';
    let label = this.modelLabels.get(model);
    if (label === undefined) {
      label = lookupModel(model) ? model : 'other';
      if (this.modelLabels.size >= maxRememberedModels) this.modelLabels.clear();
      this.modelLabels.set(model, label);
    }
    return label;
  }

  /** The series of one label combination, found once and then held (label values are bounded, so is this map). */
  private bundleFor(endpoint: string, provider: string, model: string, status: number): SeriesBundle {
    const key = `${endpoint}\u0000${provider}\u0000${model}\u0000${status}`;
    let bundle = this.bundles.get(key);
    if (!bundle) {
      bundle = new SeriesBundle(this, endpoint, provider, model, String(status));
      this.bundles.set(key, bundle);
    }
    return bundle;
  }
}

// Distinct client-sent model strings remembered with their label; past this the memo starts over.
const maxRememberedModels = 1_024;

type TokenType = 'input' | 'output' | 'cache_read' | 'cache_write' | 'reasoning';

/**
 * Every series one call may touch, for one endpoint, provider, model and status. Series beyond the first two are
 * made on first use, so a label combination that never streams exposes no stream series (as with prom-client).
 */
class SeriesBundle {
  readonly requests: CounterSeries;
  readonly duration: HistogramSeries;
  private upstreamSeries: HistogramSeries | undefined;
  private overheadSeries: HistogramSeries | undefined;
  private costSeries: CounterSeries | undefined;
  private ttftSeries: HistogramSeries | undefined;
  private tpotSeries: HistogramSeries | undefined;
  private readonly tokenSeries: Partial<Record<TokenType, HistogramSeries>> = {};

  constructor(
    private readonly metrics: InferenceMetrics,
    private readonly endpoint: string,
    private readonly provider: string,
    private readonly model: string,
    status: string,
  ) {
    this.requests = metrics.requests.series({ endpoint, provider, model, status });
    this.duration = metrics.duration.series({ endpoint, provider, model });
  }

  upstream(): HistogramSeries {
    return (this.upstreamSeries ??= this.metrics.upstreamDuration.series({
      provider: this.provider,
      model: this.model,
    }));
  }

  overhead(): HistogramSeries {
    return (this.overheadSeries ??= this.metrics.overhead.series({ endpoint: this.endpoint }));
  }

  tokens(type: TokenType): HistogramSeries {
    return (this.tokenSeries[type] ??= this.metrics.tokens.series({
      gen_ai_token_type: type,
      provider: this.provider,
      model: this.model,
    }));
  }

  cost(): CounterSeries {
    return (this.costSeries ??= this.metrics.cost.series({ provider: this.provider, model: this.model }));
  }

  timeToFirstToken(): HistogramSeries {
    return (this.ttftSeries ??= this.metrics.timeToFirstToken.series({ provider: this.provider, model: this.model }));
  }

  timePerOutputToken(): HistogramSeries {
    return (this.tpotSeries ??= this.metrics.timePerOutputToken.series({ provider: this.provider, model: this.model }));
  }
}

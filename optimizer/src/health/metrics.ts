import { Counter, Histogram, Registry } from 'prom-client';

export type OptimizeOutcome = 'applied' | 'unchanged' | 'cache_hit' | 'holdout' | 'error';

/**
 * Prometheus metrics of one optimizer app. A registry per app (never the global one), so two apps in one test
 * process do not collide.
 */
export class OptimizerMetrics {
  readonly registry = new Registry();
  readonly optimizeRequests = new Counter({
    name: 'gw_optimizer_optimize_requests_total',
    help: 'Optimize calls by outcome.',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly optimizeDuration = new Histogram({
    name: 'gw_optimizer_optimize_duration_seconds',
    help: 'Optimize handling time by outcome.',
    labelNames: ['outcome'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });
  readonly tokensSaved = new Counter({
    name: 'gw_optimizer_tokens_saved_total',
    help: 'Estimated input tokens saved by strategy kind.',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  readonly stashWrites = new Counter({
    name: 'gw_optimizer_stash_writes_total',
    help: 'Stash writes: stored, refused (store not ready), failed (store fault or bounded write missed; opens the cooldown) or rejected (the store refused the values of the row).',
    labelNames: ['result'],
    registers: [this.registry],
  });
  readonly retrieves = new Counter({
    name: 'gw_optimizer_retrieve_total',
    help: 'Retrieve calls: hit, miss (404) or unavailable (503).',
    labelNames: ['result'],
    registers: [this.registry],
  });
  readonly guardRegrets = new Counter({
    name: 'gw_optimizer_guard_regrets_total',
    help: 'Regression-guard regret signals by signal (retrieve, tool_rerun, retry_after_crop, pruned_tool_call) and strategy kind.',
    labelNames: ['signal', 'kind'],
    registers: [this.registry],
  });
  readonly guardTransitions = new Counter({
    name: 'gw_optimizer_guard_transitions_total',
    help: 'Regression-guard lane transitions by strategy kind and new state.',
    labelNames: ['kind', 'to'],
    registers: [this.registry],
  });
  readonly cacheLookups = new Counter({
    name: 'gw_optimizer_cache_lookups_total',
    help: 'Semantic cache lookups on optimize: hit (exact tier), near_hit (near-duplicate tier) or miss.',
    labelNames: ['result'],
    registers: [this.registry],
  });
  readonly cacheLintBusts = new Counter({
    name: 'gw_optimizer_cache_lint_busts_total',
    help: "Turns whose prompt stopped repeating the session's previous turn while the provider cache was warm, by the part that changed.",
    labelNames: ['region'],
    registers: [this.registry],
  });
  readonly cacheLintTokens = new Counter({
    name: 'gw_optimizer_cache_lint_rewritten_tokens_total',
    help: 'Estimated prompt tokens the provider wrote again because of those changes, by region.',
    labelNames: ['region'],
    registers: [this.registry],
  });
}

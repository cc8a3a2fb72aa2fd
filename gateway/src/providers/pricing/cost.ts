import type { Usage } from '../translate/usage.js';
import { uncachedInputTokens } from '../translate/usage.js';
import type { ModelFacts } from './known-models.js';

/**
 * Exact list-price cost of one call: uncached input, cache reads and cache writes each at their own price, output
 * (reasoning tokens are part of output) at the output price. Unknown models cost 0 and are flagged by the caller.
 */
export function costUsd(usage: Usage, facts: ModelFacts | undefined): number {
  if (!facts) return 0;
  const dollarsTimesMillion =
    uncachedInputTokens(usage) * facts.inputPerMTok +
    usage.cacheReadTokens * facts.cacheReadPerMTok +
    usage.cacheWriteTokens * facts.cacheWritePerMTok +
    usage.outputTokens * facts.outputPerMTok;
  // Rounded to 1e-10 USD so the same usage always yields the same stored number on every replica.
  return Math.round(dollarsTimesMillion * 10_000) / 10_000_000_000;
}

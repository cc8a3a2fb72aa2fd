import { savingsUsd } from '../settings/input-prices.js';
import { strategyKinds, type StrategyKind } from '../strategies/types.js';
import { countTokens } from '../tokens/count-tokens.js';
import type { SpanState } from './span-state.js';
import type { Decision } from './types.js';

/**
 * Splits a span's token saving between its steps: replayed steps report what they saved when decided (no
 * recount), fresh steps share the rest in proportion to the characters each removed.
 */
export function attributeSavings(state: SpanState): void {
  const fresh = state.steps.filter((step) => !step.replayed);
  if (fresh.length === 0) return;
  const before = state.tokensBefore ?? countTokens(state.span.text);
  state.tokensBefore = before;
  const replayedSaved = state.steps.reduce((sum, step) => sum + (step.replayed ? step.saved : 0), 0);
  let remaining = Math.max(0, before - countTokens(state.text) - replayedSaved);
  const removed = fresh.reduce((sum, step) => sum + step.charsRemoved, 0);
  fresh.forEach((step, index) => {
    const share =
      index === fresh.length - 1 || removed === 0 ? remaining : Math.floor((remaining * step.charsRemoved) / removed);
    step.saved = share;
    remaining -= share;
  });
}

const verbs: Record<StrategyKind, string> = {
  dedupe_tool_result: 'replaced duplicate tool outputs with a reference',
  file_outline: 'reduced long file reads to their outline',
  listing_group: 'grouped vendored paths of long listings by directory',
  test_log_failures: 'cut test logs to failures and summary',
  json_array_summary: 'summarised large JSON collections',
  json_minify: 'compacted JSON layout',
  log_fold: 'folded repeated log lines',
  elide_tool_output: 'elided the middle of long tool outputs',
  ansi_strip: 'stripped terminal escape sequences',
  whitespace_trim: 'trimmed insignificant whitespace',
  window_budget: 'cut old tool outputs to fit the context window',
};

/** One decision per kind that acted, in pipeline order; summaries carry counts, never content. */
export function buildDecisions(states: readonly SpanState[], pricePerToken: number): Decision[] {
  const totals = new Map<StrategyKind, { outputs: number; replayed: number; saved: number }>();
  for (const state of states) {
    for (const step of state.steps) {
      const total = totals.get(step.kind) ?? { outputs: 0, replayed: 0, saved: 0 };
      total.outputs += 1;
      if (step.replayed) total.replayed += 1;
      total.saved += step.saved;
      totals.set(step.kind, total);
    }
  }
  const decisions: Decision[] = [];
  for (const kind of strategyKinds) {
    const total = totals.get(kind);
    if (!total) continue;
    const replayed = total.replayed > 0 ? `, ${total.replayed} replayed from pins` : '';
    decisions.push({
      kind,
      summary: `${verbs[kind]} (${total.outputs} tool output${total.outputs === 1 ? '' : 's'}${replayed})`,
      estimatedTokensSaved: total.saved,
      estimatedSavingsUsd: savingsUsd(total.saved, pricePerToken),
    });
  }
  return decisions;
}

import { ansiStrip } from './ansi-strip.js';
import { dedupeToolResult } from './dedupe-tool-result.js';
import { elideToolOutput } from './elide-tool-output.js';
import { fileOutline } from './file-outline.js';
import { listingGroup } from './listing-group.js';
import { testLogFailures } from './test-log-failures.js';
import { jsonArraySummary } from './json-array-summary.js';
import { jsonMinify } from './json-minify.js';
import { logFold } from './log-fold.js';
import type { Recipe, SpanStrategy, StrategyKind } from './types.js';
import { whitespaceTrim } from './whitespace-trim.js';
import { windowBudget } from './window-budget.js';

/**
 * Per-output strategies in application order. Content-dropping ones see the client's bytes first so their handle
 * and counts describe the original; the lossless cleanups then tidy whatever is left.
 */
export const spanStrategies: readonly SpanStrategy<Recipe>[] = [
  dedupeToolResult,
  fileOutline,
  listingGroup,
  testLogFailures,
  jsonArraySummary,
  jsonMinify,
  logFold,
  elideToolOutput,
  ansiStrip,
  whitespaceTrim,
] as readonly unknown[] as readonly SpanStrategy<Recipe>[];

const byKind = new Map<StrategyKind, SpanStrategy<Recipe>>(
  [...spanStrategies, windowBudget as unknown as SpanStrategy<Recipe>].map((strategy) => [strategy.kind, strategy]),
);

export function strategyFor(kind: StrategyKind): SpanStrategy<Recipe> {
  const strategy = byKind.get(kind);
  if (!strategy) throw new Error(`no strategy ${kind}`);
  return strategy;
}

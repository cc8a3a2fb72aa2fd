import type { Decision } from '@gw/contracts';
import type { JsonObject } from '../format/json-value.js';
import { savingsUsd } from '../settings/input-prices.js';
import { plural } from '../strategies/retrieve-hint.js';
import { countTokens } from '../tokens/count-tokens.js';
import { minifyToolArguments } from './tool-arguments-minify.js';

/** Strategies of `/v1/optimize-response`. */
export const outputStrategyKinds = ['tool_arguments_minify'] as const;

export interface OutputStageInput {
  readonly response: JsonObject;
  /** Kinds switched off for this call (kill switches, a per-strategy holdout arm). */
  readonly disabled: ReadonlySet<string>;
  readonly pricePerToken: number;
}

export interface OutputStageResult {
  readonly response: JsonObject;
  readonly decisions: Decision[];
}

function tokens(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + countTokens(text), 0);
}

/**
 * Runs the output-stage strategies. Deterministic and fail-open like the input side: a strategy that throws is
 * skipped and the response passes through as it came.
 */
export function runOutputStage(input: OutputStageInput): OutputStageResult {
  if (input.disabled.has('tool_arguments_minify')) return { response: input.response, decisions: [] };
  let rewrite;
  try {
    rewrite = minifyToolArguments(input.response);
  } catch {
    return { response: input.response, decisions: [] };
  }
  if (!rewrite) return { response: input.response, decisions: [] };
  const saved = Math.max(0, tokens(rewrite.before) - tokens(rewrite.after));
  const decision: Decision = {
    kind: 'tool_arguments_minify',
    summary: `removed JSON layout from tool-call arguments (${plural(rewrite.calls, 'call')}); saved again on every later turn that carries them`,
    estimatedTokensSaved: saved,
    estimatedSavingsUsd: savingsUsd(saved, input.pricePerToken),
  };
  return { response: rewrite.response, decisions: [decision] };
}

import { estimateInputTokens } from '../providers/pricing/count-tokens.js';
import type { ModelFacts } from '../providers/pricing/known-models.js';
import { toMicros } from './money.js';

type Json = Record<string, unknown>;

/** Output allowance when a request names no limit and the model's ceiling is unknown. */
const fallbackOutputTokens = 4_096;

function outputAllowance(body: Json, facts: ModelFacts | undefined): number {
  const named = [body.max_tokens, body.max_completion_tokens, body.max_output_tokens].find((value): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0);
  const ceiling = facts?.maxOutputTokens;
  // Messages lanes clamp max_tokens to the ceiling (spec 000 §1.15), so the ceiling bounds what can be billed.
  if (named !== undefined) return Math.ceil(ceiling ? Math.min(named, ceiling) : named);
  return ceiling ?? fallbackOutputTokens;
}

function promptTokens(body: Json): number {
  const extra: unknown[] = [body.prompt, body.input, body.instructions].filter((value) => value !== undefined);
  return estimateInputTokens({ system: body.system, messages: [...(Array.isArray(body.messages) ? (body.messages as unknown[]) : []), ...extra], tools: body.tools });
}

export interface CallEstimate {
  tokens: number;
  costMicros: number;
}

/**
 * Strict mode's reservation (governance/README.md): prompt tokens estimated locally plus the output allowance, priced
 * at the model's dearest input rate (cache writes cost more than plain input) and its output rate. Generous on
 * purpose: an estimate below the actual cost is the only way a strict budget can be overshot.
 */
export function estimateCall(body: Json | undefined, facts: ModelFacts | undefined): CallEstimate {
  const source = body ?? {};
  const input = promptTokens(source);
  const output = outputAllowance(source, facts);
  if (!facts) return { tokens: input + output, costMicros: 0 };
  const inputRate = Math.max(facts.inputPerMTok, facts.cacheWritePerMTok);
  return { tokens: input + output, costMicros: Math.ceil(toMicros((input * inputRate + output * facts.outputPerMTok) / 1_000_000)) + 1 };
}

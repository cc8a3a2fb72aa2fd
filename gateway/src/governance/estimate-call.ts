import { estimateInputTokens } from '../providers/pricing/count-tokens.js';
import type { ModelFacts } from '../providers/pricing/known-models.js';
import { toMicros } from './money.js';

type Json = Record<string, unknown>;

/** Output a strict reservation assumes for a request that names no bound (`GW_STRICT_DEFAULT_OUTPUT_TOKENS`). */
export const defaultOutputEstimateTokens = 1_024;

/**
 * The output a strict reservation holds: the request's own bound when it names one (clamped to the model's ceiling,
 * as the Messages lanes clamp it), else the model's configured default estimate, else the deployment's. Reserving the
 * ceiling instead made a cap smaller than one ceiling refuse every unbounded call; the reservation is settled to the
 * actual cost either way.
 */
function outputAllowance(body: Json, facts: ModelFacts | undefined, defaultOutputTokens: number): number {
  const named = [body.max_tokens, body.max_completion_tokens, body.max_output_tokens].find(
    (value): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0,
  );
  const ceiling = facts?.maxOutputTokens;
  const allowance = named ?? facts?.defaultOutputTokens ?? defaultOutputTokens;
  return Math.ceil(ceiling ? Math.min(allowance, ceiling) : allowance);
}

function promptTokens(body: Json): Promise<number> {
  const extra: unknown[] = [body.prompt, body.input, body.instructions].filter((value) => value !== undefined);
  return estimateInputTokens({
    system: body.system,
    messages: [...(Array.isArray(body.messages) ? (body.messages as unknown[]) : []), ...extra],
    tools: body.tools,
  });
}

export interface CallEstimate {
  tokens: number;
  costMicros: number;
}

/**
 * Strict mode's reservation (governance/README.md): prompt tokens estimated locally plus the output allowance, priced
 * at the model's dearest input rate (cache writes cost more than plain input) and its output rate. An estimate below
 * the actual cost is the only way a strict budget can be overshot: a request that names its bound cannot be.
 */
export async function estimateCall(
  body: Json | undefined,
  facts: ModelFacts | undefined,
  defaultOutputTokens = defaultOutputEstimateTokens,
): Promise<CallEstimate> {
  const source = body ?? {};
  const input = await promptTokens(source);
  const output = outputAllowance(source, facts, defaultOutputTokens);
  if (!facts) return { tokens: input + output, costMicros: 0 };
  const inputRate = Math.max(facts.inputPerMTok, facts.cacheWritePerMTok);
  return {
    tokens: input + output,
    costMicros: Math.ceil(toMicros((input * inputRate + output * facts.outputPerMTok) / 1_000_000)) + 1,
  };
}

import { lookupModel, type ModelFacts } from '../providers/pricing/known-models.js';

/**
 * On Messages lanes a `max_tokens` above the model's hard output ceiling is clamped down to the
 * ceiling instead of rejected. At or under the ceiling, unknown models and passthrough traffic are unchanged; the
 * value is never raised. Returns the same object when nothing changes (so raw bytes can still be forwarded).
 */
export function clampMaxTokens<Body extends Record<string, unknown>>(
  body: Body,
  model: string,
  overrides?: Readonly<Record<string, ModelFacts>>,
): Body {
  const ceiling = lookupModel(model, overrides)?.maxOutputTokens;
  const requested = body.max_tokens;
  if (ceiling === undefined || typeof requested !== 'number' || requested <= ceiling) return body;
  const clamped: Record<string, unknown> = { ...body, max_tokens: ceiling };
  // Anthropic requires max_tokens > thinking.budget_tokens; a budget the clamp overtook shrinks with it.
  const thinking = body.thinking as { budget_tokens?: unknown } | undefined;
  if (typeof thinking?.budget_tokens === 'number' && thinking.budget_tokens >= ceiling)
    clamped.thinking = { ...thinking, budget_tokens: ceiling - 1 };
  return clamped as Body;
}

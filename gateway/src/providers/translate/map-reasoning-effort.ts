import type { ReasoningEffort } from './schemas/chat-completions.schema.js';
import type { MessagesThinkingOut } from './schemas/messages.types.js';

/**
 * `reasoning_effort` ⇄ Messages extended thinking.
 *
 * Forward (chat → Messages), thinking `budget_tokens` per effort:
 *
 * | effort  | budget_tokens |
 * |---------|---------------|
 * | none    | thinking `{type: "disabled"}` (an explicit off-switch, recorded as `none`) |
 * | minimal | 1024 (the Messages minimum) |
 * | low     | 2048  |
 * | medium  | 8192  |
 * | high    | 16384 |
 * | xhigh   | 24576 |
 * | max     | 32000 |
 *
 * The budget must stay below `max_tokens`, which counts thinking too (as OpenAI's `max_completion_tokens`
 * counts reasoning). When the client set no limit, the request translator adds the budget to its default
 * limit, so the answer keeps the default room. When it did, thinking gets at most half of that limit, so
 * the answer keeps the other half, and is left off when that half is under the 1024-token minimum.
 *
 * Reverse (Messages → chat): budget < 4096 → `low`, < 16384 → `medium`, otherwise `high`, so each
 * forward level maps back to itself for low/medium/high. Only low/medium/high are sent: every OpenAI
 * reasoning model accepts them. Adaptive thinking and `output_config.effort` map by name (xhigh and max
 * become `high`); disabled thinking sends no effort (the provider's default for the model).
 */
export const thinkingBudgetByEffort: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 24576,
  max: 32000,
};

export const minimumThinkingBudget = 1024;

/**
 * Thinking for an effort. `clientMaxTokens` is the limit the client set, undefined when the translator's
 * default applies (the caller then raises that default by the budget). Undefined result: send no thinking.
 */
export function thinkingForEffort(
  effort: ReasoningEffort,
  clientMaxTokens: number | undefined,
): MessagesThinkingOut | undefined {
  if (effort === 'none') return { type: 'disabled' };
  const wanted = thinkingBudgetByEffort[effort];
  if (clientMaxTokens === undefined) return { type: 'enabled', budget_tokens: wanted };
  const budget = Math.min(wanted, Math.floor(clientMaxTokens / 2));
  return budget >= minimumThinkingBudget ? { type: 'enabled', budget_tokens: budget } : undefined;
}

export type ChatReasoningEffort = 'low' | 'medium' | 'high';

export function effortForThinking(
  thinking: { type: string; budget_tokens?: number | null } | null | undefined,
  outputConfigEffort: string | null | undefined,
): ChatReasoningEffort | undefined {
  if (thinking?.type === 'disabled') return undefined;
  if (thinking?.type === 'enabled' && typeof thinking.budget_tokens === 'number') {
    if (thinking.budget_tokens < 4096) return 'low';
    return thinking.budget_tokens < 16384 ? 'medium' : 'high';
  }
  switch (outputConfigEffort) {
    case 'low':
    case 'medium':
    case 'high':
      return outputConfigEffort;
    case 'xhigh':
    case 'max':
      return 'high';
    default:
      return undefined;
  }
}

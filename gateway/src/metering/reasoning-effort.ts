/** Spend record: the union of effort levels across providers (not one ranked scale). */
export const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ReasoningEffort = (typeof reasoningEfforts)[number];

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asEffort = (value: unknown): ReasoningEffort | null =>
  typeof value === 'string' && (reasoningEfforts as readonly string[]).includes(value)
    ? (value as ReasoningEffort)
    : null;

/** A level named directly: `reasoning_effort`, `reasoning.effort`, `output_config.effort`, a thinking level. */
function namedLevel(body: Json): ReasoningEffort | null {
  const reasoning = isObject(body.reasoning) ? body.reasoning : undefined;
  const outputConfig = isObject(body.output_config) ? body.output_config : undefined;
  const thinking = isObject(body.thinking) ? body.thinking : undefined;
  const thinkingConfig = isObject(body.thinkingConfig)
    ? body.thinkingConfig
    : isObject(body.thinking_config)
      ? body.thinking_config
      : undefined;
  return (
    asEffort(body.reasoning_effort) ??
    asEffort(reasoning?.effort) ??
    asEffort(outputConfig?.effort) ??
    asEffort(thinking?.level) ??
    asEffort(body.thinking_level) ??
    asEffort(thinkingConfig?.thinkingLevel) ??
    asEffort(thinkingConfig?.thinking_level)
  );
}

/** Only an explicit off-switch records `none`: `thinking.type: disabled`, or a thinking budget of 0. */
function offSwitch(body: Json): boolean {
  const thinking = isObject(body.thinking) ? body.thinking : undefined;
  if (thinking?.type === 'disabled') return true;
  const budget =
    thinking?.budget_tokens ?? (isObject(body.thinkingConfig) ? body.thinkingConfig.thinkingBudget : undefined);
  return budget === 0;
}

function fromBody(body: Json): ReasoningEffort | null {
  const named = namedLevel(body);
  if (named) return named;
  return offSwitch(body) ? 'none' : null;
}

/**
 * The effort level a request was sent with, read from whichever field names one, including inside a converse
 * envelope (`additionalModelRequestFields`); a numeric thinking budget records no level; no field records nothing.
 */
export function reasoningEffortOf(body: unknown): ReasoningEffort | null {
  if (!isObject(body)) return null;
  const direct = fromBody(body);
  if (direct) return direct;
  const converse = body.additionalModelRequestFields;
  return isObject(converse) ? fromBody(converse) : null;
}

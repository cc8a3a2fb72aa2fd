import { ownValue } from '@gw/platform';

/**
 * Well-known models: list prices in USD per million tokens and hard output ceilings. Routing config can override
 * and extend both per deployment (`/admin/v1/routing/models`). Prices are list prices as published by the vendors.
 */
export interface ModelFacts {
  family: 'openai' | 'anthropic';
  inputPerMTok: number;
  outputPerMTok: number;
  /** Price of input tokens read from the provider's prompt cache. */
  cacheReadPerMTok: number;
  /** Price of input tokens written to the prompt cache (Anthropic: 1.25× input for the 5-minute cache). */
  cacheWritePerMTok: number;
  /** Hard output-token ceiling (Messages lanes clamp `max_tokens` to it). */
  maxOutputTokens?: number;
  contextTokens?: number;
  /** Output a strict budget reserves for a request that names no bound (governance README, "Strict mode"). */
  defaultOutputTokens?: number;
}

const openai = (
  input: number,
  cachedInput: number,
  output: number,
  contextTokens: number,
  maxOutputTokens?: number,
): ModelFacts => ({
  family: 'openai',
  inputPerMTok: input,
  outputPerMTok: output,
  cacheReadPerMTok: cachedInput,
  cacheWritePerMTok: input,
  contextTokens,
  ...(maxOutputTokens ? { maxOutputTokens } : {}),
});

const anthropic = (input: number, output: number, maxOutputTokens: number, contextTokens = 200_000): ModelFacts => ({
  family: 'anthropic',
  inputPerMTok: input,
  outputPerMTok: output,
  cacheReadPerMTok: input * 0.1,
  cacheWritePerMTok: input * 1.25,
  maxOutputTokens,
  contextTokens,
});

export const knownModels: Readonly<Record<string, ModelFacts>> = {
  'gpt-5': openai(1.25, 0.125, 10, 400_000, 128_000),
  'gpt-5-mini': openai(0.25, 0.025, 2, 400_000, 128_000),
  'gpt-5-nano': openai(0.05, 0.005, 0.4, 400_000, 128_000),
  'gpt-4.1': openai(2, 0.5, 8, 1_047_576, 32_768),
  'gpt-4.1-mini': openai(0.4, 0.1, 1.6, 1_047_576, 32_768),
  'gpt-4.1-nano': openai(0.1, 0.025, 0.4, 1_047_576, 32_768),
  'gpt-4o': openai(2.5, 1.25, 10, 128_000, 16_384),
  'gpt-4o-mini': openai(0.15, 0.075, 0.6, 128_000, 16_384),
  o3: openai(2, 0.5, 8, 200_000, 100_000),
  'o4-mini': openai(1.1, 0.275, 4.4, 200_000, 100_000),
  'text-embedding-3-small': openai(0.02, 0.02, 0, 8_192),
  'text-embedding-3-large': openai(0.13, 0.13, 0, 8_192),
  'claude-opus-4-5': anthropic(5, 25, 64_000),
  'claude-opus-4-1': anthropic(15, 75, 32_000),
  'claude-opus-4': anthropic(15, 75, 32_000),
  'claude-sonnet-4-5': anthropic(3, 15, 64_000),
  'claude-sonnet-4': anthropic(3, 15, 64_000),
  'claude-3-7-sonnet': anthropic(3, 15, 64_000),
  'claude-haiku-4-5': anthropic(1, 5, 64_000),
  'claude-3-5-haiku': anthropic(0.8, 4, 8_192),
  'claude-3-5-sonnet': anthropic(3, 15, 8_192),
  'claude-3-opus': anthropic(15, 75, 4_096),
  'claude-3-haiku': anthropic(0.25, 1.25, 4_096),
};

// Dated snapshots (`claude-sonnet-4-5-20250929`, `gpt-4.1-2025-04-14`) and `-latest` share their base model's facts.
const snapshotSuffix = /(?:-\d{8}|-\d{4}-\d{2}-\d{2}|-latest)$/;
const noOverrides: Readonly<Record<string, ModelFacts>> = Object.freeze({});

/**
 * Facts for a model id, matching dated snapshots to their base id; undefined for unknown models. Looked up on every
 * call (routing, clamping, governance, pricing), so it is two map reads: the id, then the id without its snapshot
 * suffix (at most one of the suffix forms can end an id).
 */
export function lookupModel(
  model: string,
  overrides: Readonly<Record<string, ModelFacts>> = noOverrides,
): ModelFacts | undefined {
  const id = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  const exact = ownValue(overrides, id) ?? ownValue(knownModels, id);
  if (exact) return exact;
  const suffix = snapshotSuffix.exec(id);
  if (!suffix) return undefined;
  const base = id.slice(0, suffix.index);
  return ownValue(overrides, base) ?? ownValue(knownModels, base);
}

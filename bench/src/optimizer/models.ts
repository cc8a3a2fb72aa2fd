/** What the benchmark needs to know of a model: its list input price and its context window. */
export interface ModelFacts {
  readonly inputPerMTok: number;
  readonly contextTokens: number;
}

// List input prices in USD per million tokens and context windows of the models the corpora name.
const known: Record<string, ModelFacts> = {
  'gpt-4.1': { inputPerMTok: 2, contextTokens: 1_047_576 },
  'gpt-4.1-mini': { inputPerMTok: 0.4, contextTokens: 1_047_576 },
  'gpt-4o': { inputPerMTok: 2.5, contextTokens: 128_000 },
  'gpt-5': { inputPerMTok: 1.25, contextTokens: 400_000 },
  'gpt-5-codex': { inputPerMTok: 1.25, contextTokens: 400_000 },
  'o4-mini': { inputPerMTok: 1.1, contextTokens: 200_000 },
  'claude-haiku-4-5': { inputPerMTok: 1, contextTokens: 200_000 },
  'claude-sonnet-4-5': { inputPerMTok: 3, contextTokens: 200_000 },
  'claude-opus-4-1': { inputPerMTok: 15, contextTokens: 200_000 },
  'gemini-3-pro-preview': { inputPerMTok: 2, contextTokens: 1_048_576 },
};

/** An unknown model is priced like gpt-4.1 and gets no window (the optimizer then assumes its 190k fallback). */
const fallbackPricePerMTok = 2;

export function inputPricePerMTok(model: string): number {
  return known[model]?.inputPerMTok ?? fallbackPricePerMTok;
}

/** The window the gateway would stamp as `metadata.modelContextTokens`, when it knows the model. */
export function contextTokensOf(model: string): number | undefined {
  return known[model]?.contextTokens;
}

import { ownValue } from '@gw/platform';

/**
 * List input prices in USD per million tokens of well-known models, for `estimatedSavingsUsd`. The
 * gateway prices the spend row's `savingsUsd` from its own (overridable) table; this one only makes the optimizer's
 * estimate useful on its own, so it stays small and unknown models price at 0.
 */
const inputPerMTok: Readonly<Record<string, number>> = {
  'gpt-5': 1.25,
  'gpt-5-mini': 0.25,
  'gpt-5-nano': 0.05,
  'gpt-4.1': 2,
  'gpt-4.1-mini': 0.4,
  'gpt-4.1-nano': 0.1,
  'gpt-4o': 2.5,
  'gpt-4o-mini': 0.15,
  o3: 2,
  'o4-mini': 1.1,
  'claude-opus-4-5': 5,
  'claude-opus-4-1': 15,
  'claude-opus-4': 15,
  'claude-sonnet-4-5': 3,
  'claude-sonnet-4': 3,
  'claude-3-7-sonnet': 3,
  'claude-haiku-4-5': 1,
  'claude-3-5-haiku': 0.8,
  'claude-3-5-sonnet': 3,
  'claude-3-opus': 15,
  'claude-3-haiku': 0.25,
};

// Dated snapshots (`claude-sonnet-4-5-20250929`, `gpt-4.1-2025-04-14`) and `-latest` price as their base model.
const snapshotSuffix = /^(-\d{8}|-\d{4}-\d{2}-\d{2}|-latest)$/;

/** USD per input token of `model` (a `provider/` prefix is ignored); 0 when the model is unknown. */
export function inputPricePerToken(model: string | undefined): number {
  if (!model) return 0;
  const id = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  let price = ownValue(inputPerMTok, id);
  if (price === undefined) {
    let best = '';
    for (const candidate of Object.keys(inputPerMTok)) {
      if (candidate.length > best.length && id.startsWith(candidate) && snapshotSuffix.test(id.slice(candidate.length)))
        best = candidate;
    }
    price = best ? ownValue(inputPerMTok, best) : undefined;
  }
  return (price ?? 0) / 1_000_000;
}

/** `estimatedSavingsUsd` of a token saving, rounded to 1e-8 USD so identical input gives identical bytes. */
export function savingsUsd(tokens: number, pricePerToken: number): number {
  return Math.round(tokens * pricePerToken * 1e8) / 1e8;
}

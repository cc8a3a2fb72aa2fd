/** Shared SQL fragments of the spend reports. Rejected rows carry no tokens or cost, so plain sums stay right. */
export const totalsSql = `count(*) FILTER (WHERE outcome <> 'rejected') AS requests,
  COALESCE(sum(prompt_tokens), 0) AS prompt_tokens, COALESCE(sum(completion_tokens), 0) AS completion_tokens,
  COALESCE(sum(total_tokens), 0) AS total_tokens, COALESCE(sum(cache_read_tokens), 0) AS cache_read_tokens,
  COALESCE(sum(cache_write_tokens), 0) AS cache_write_tokens, COALESCE(sum(reasoning_tokens), 0) AS reasoning_tokens,
  COALESCE(sum(cost_usd), 0) AS cost_usd, COALESCE(sum(savings_usd), 0) AS savings_usd, COALESCE(sum(tokens_saved), 0) AS tokens_saved`;

export type NumericCell = string | number | null;

export interface TotalsRow {
  requests: NumericCell;
  prompt_tokens: NumericCell;
  completion_tokens: NumericCell;
  total_tokens: NumericCell;
  cache_read_tokens: NumericCell;
  cache_write_tokens: NumericCell;
  reasoning_tokens: NumericCell;
  cost_usd: NumericCell;
  savings_usd: NumericCell;
  tokens_saved: NumericCell;
}

export const num = (value: NumericCell | undefined): number =>
  value === null || value === undefined ? 0 : Number(value);
// Sums of numeric(…) money come back as long decimals; 10 decimal places is the precision stored per record.
export const usd = (value: NumericCell | undefined): number => Math.round(num(value) * 1e10) / 1e10;

export function totalsOf(row: TotalsRow | undefined) {
  return {
    requests: num(row?.requests),
    promptTokens: num(row?.prompt_tokens),
    completionTokens: num(row?.completion_tokens),
    totalTokens: num(row?.total_tokens),
    cacheReadTokens: num(row?.cache_read_tokens),
    cacheWriteTokens: num(row?.cache_write_tokens),
    reasoningTokens: num(row?.reasoning_tokens),
    costUsd: usd(row?.cost_usd),
    savingsUsd: usd(row?.savings_usd),
    tokensSaved: num(row?.tokens_saved),
  };
}

/** Who a row is attributed to: the user, or for service-key traffic (no user) the key. */
export const attributionSql = `user_id, CASE WHEN user_id IS NULL THEN key_id END AS attributed_key`;
export const dayOfSql = `to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;

import { isoInstant } from '@gw/platform';
import type { CapReset } from '../../governance/period.js';

/** Reason codes of admission denials. */
export type AdmissionCode =
  | 'rate_limit_exceeded'
  | 'concurrency_limit_exceeded'
  | 'user_token_cap_exceeded'
  | 'user_budget_exceeded'
  | 'service_key_budget_exceeded'
  | 'guardrail_denied'
  | 'guardrail_unavailable';

/** What a check answers when the request must not go on. */
export interface Denial {
  /** 402 caps and budgets, 429 limits, 400/403 a guardrail's refusal, 503 a fail-closed guardrail that gave no verdict. */
  status: 400 | 402 | 403 | 429 | 503;
  code: AdmissionCode;
  /** Shown to the caller. */
  message: string;
  /** For `/admin/auth-events`: what an administrator or the developer can do. */
  hint: string;
  /** 429 only: when to retry (at most 60 s). */
  retryAfterMs?: number;
}

/** Usage of one limited quantity in the current period. */
export interface Consumption {
  /** Counted from completed calls; null when the counters are unreachable (soft checks then fail open). */
  spent: number | null;
  /** Strict mode: reservations of in-flight calls, this request's included; 0 in soft mode. */
  reserved: number;
}

/**
 * Everything the pure checks need, fetched by `load-admission.ts` in as few Coord round trips as possible. A part is
 * null when it does not apply (no limit configured, no cap, no budget) or when its source is down (fail open).
 */
export interface AdmissionInput {
  rate: { limit: number; allowed: boolean; retryAfterMs: number } | null;
  concurrency: { limit: number; acquired: boolean; retryAfterMs: number } | null;
  userCap: {
    user: string;
    reset: CapReset;
    /** Epoch ms of the next reset; null for `never`. */
    resetsAt: number | null;
    strict: boolean;
    monthlyTokens: number | null;
    maxUsd: number | null;
    tokens: Consumption;
    costMicros: Consumption;
  } | null;
  serviceKeyBudget: {
    keyId: string;
    name: string;
    monthlyBudgetUsd: number;
    resetsAt: number;
    strict: boolean;
    costMicros: Consumption;
  } | null;
}

export type AdmissionCheck = (input: AdmissionInput) => Denial | null;

/**
 * Over the limit: soft mode denies once completed usage is at or over it; strict mode also denies when
 * the reservations of in-flight calls, this one included, would take it past the limit.
 */
export function exceeds(consumption: Consumption, limit: number, strict: boolean): boolean {
  if (consumption.spent === null) return false;
  if (consumption.spent >= limit) return true;
  return strict && consumption.spent + consumption.reserved > limit;
}

/** `2026-12-01T00:00:00Z` for messages. */
export const utcInstant = (at: number) => isoInstant(at).replace('.000Z', 'Z');

/**
 * A denial's account of usage against the limit. Strict mode names what it holds for calls in flight, this one
 * included, so a caller refused below the cap sees why: `$0.00 spent + $0.02 reserved of $0.06`.
 */
export function usageAgainstLimit(
  consumption: Consumption,
  limit: number,
  strict: boolean,
  format: (amount: number) => string,
): string {
  const spent = format(consumption.spent ?? 0);
  if (!strict) return `${spent} of ${format(limit)}`;
  return `${spent} spent + ${format(consumption.reserved)} reserved for calls in flight (this one included) of ${format(limit)}`;
}

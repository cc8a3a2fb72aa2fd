import type { AdmissionCheck, AdmissionInput, Denial } from './admission-input.js';
import { concurrencyLimitCheck } from './concurrency-limit.check.js';
import { rateLimitCheck } from './rate-limit.check.js';
import { serviceKeyBudgetCheck } from './service-key-budget.check.js';
import { userBudgetCheck } from './user-budget.check.js';
import { userTokenCapCheck } from './user-token-cap.check.js';

/** Order: rate limit, concurrency limit, (guardrail hooks), per-user caps, then service-key budgets. */
export const checksBeforeGuardrails: readonly AdmissionCheck[] = [rateLimitCheck, concurrencyLimitCheck];
export const checksAfterGuardrails: readonly AdmissionCheck[] = [
  userTokenCapCheck,
  userBudgetCheck,
  serviceKeyBudgetCheck,
];
export const admissionChecks: readonly AdmissionCheck[] = [...checksBeforeGuardrails, ...checksAfterGuardrails];

export function firstDenial(input: AdmissionInput, checks: readonly AdmissionCheck[] = admissionChecks): Denial | null {
  for (const check of checks) {
    const denial = check(input);
    if (denial) return denial;
  }
  return null;
}

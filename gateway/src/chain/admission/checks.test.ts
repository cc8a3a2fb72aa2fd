import { describe, expect, it } from 'vitest';
import { unlimited } from '../../../test/admission-inputs.js';
import type { AdmissionInput } from './admission-input.js';
import { firstDenial } from './checks.js';

const everythingOver: AdmissionInput = {
  rate: { limit: 1, allowed: false, retryAfterMs: 500 },
  concurrency: { limit: 1, acquired: false, retryAfterMs: 1_000 },
  userCap: {
    user: 'ada',
    reset: 'monthly',
    resetsAt: 0,
    strict: false,
    monthlyTokens: 1,
    maxUsd: 1,
    tokens: { spent: 5, reserved: 0 },
    costMicros: { spent: 5_000_000, reserved: 0 },
  },
  serviceKeyBudget: {
    keyId: 'k',
    name: 'svc',
    monthlyBudgetUsd: 1,
    resetsAt: 0,
    strict: false,
    costMicros: { spent: 5_000_000, reserved: 0 },
  },
};

describe('admission check order', () => {
  it.each([
    ['rate limit first', everythingOver, 'rate_limit_exceeded'],
    ['then concurrency', { ...everythingOver, rate: null }, 'concurrency_limit_exceeded'],
    ['then the token cap', { ...everythingOver, rate: null, concurrency: null }, 'user_token_cap_exceeded'],
    [
      'then the USD budget',
      {
        ...everythingOver,
        rate: null,
        concurrency: null,
        userCap: { ...everythingOver.userCap!, monthlyTokens: null },
      },
      'user_budget_exceeded',
    ],
    [
      'then the service key budget',
      { ...everythingOver, rate: null, concurrency: null, userCap: null },
      'service_key_budget_exceeded',
    ],
    ['nothing limited', unlimited, null],
  ] as const)('%s', (_name, input, code) => {
    expect(firstDenial(input)?.code ?? null).toBe(code);
  });
});

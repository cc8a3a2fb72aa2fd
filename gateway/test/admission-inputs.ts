import type { AdmissionInput } from '../src/chain/admission/admission-input.js';

/** Test inputs: nothing limited, then each test sets the part its check reads. */
export const unlimited: AdmissionInput = { rate: null, concurrency: null, userCap: null, serviceKeyBudget: null };

export const capInput = (overrides: Partial<NonNullable<AdmissionInput['userCap']>>): AdmissionInput => ({
  ...unlimited,
  userCap: {
    user: 'ada@example.com',
    reset: 'monthly',
    resetsAt: Date.UTC(2026, 11, 1),
    strict: false,
    monthlyTokens: null,
    maxUsd: null,
    tokens: { spent: 0, reserved: 0 },
    costMicros: { spent: 0, reserved: 0 },
    ...overrides,
  },
});

export const budgetInput = (overrides: Partial<NonNullable<AdmissionInput['serviceKeyBudget']>>): AdmissionInput => ({
  ...unlimited,
  serviceKeyBudget: {
    keyId: 'key_svc',
    name: 'nightly-batch',
    monthlyBudgetUsd: 10,
    resetsAt: Date.UTC(2026, 11, 1),
    strict: false,
    costMicros: { spent: 0, reserved: 0 },
    ...overrides,
  },
});

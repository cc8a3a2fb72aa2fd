import { describe, expect, it } from 'vitest';
import { budgetInput, unlimited } from '../../../test/admission-inputs.js';
import { serviceKeyBudgetCheck } from './service-key-budget.check.js';

describe('serviceKeyBudgetCheck', () => {
  it.each([
    ['not a service key with a budget', unlimited, false],
    ['under the budget', budgetInput({ costMicros: { spent: 9_999_999, reserved: 0 } }), false],
    ['at the budget', budgetInput({ costMicros: { spent: 10_000_000, reserved: 0 } }), true],
    ['counter outage: fails open', budgetInput({ costMicros: { spent: null, reserved: 0 } }), false],
    [
      'strict: reservations that fit',
      budgetInput({ strict: true, costMicros: { spent: 9_000_000, reserved: 1_000_000 } }),
      false,
    ],
    [
      'strict: reservations past the budget',
      budgetInput({ strict: true, costMicros: { spent: 9_000_000, reserved: 1_000_001 } }),
      true,
    ],
  ] as const)('%s', (_name, input, denied) => {
    expect(serviceKeyBudgetCheck(input)?.code ?? null).toBe(denied ? 'service_key_budget_exceeded' : null);
  });

  it('tells an admin to raise the budget or wait for the next UTC month', () => {
    const denial = serviceKeyBudgetCheck(budgetInput({ costMicros: { spent: 12_000_000, reserved: 0 } }));
    expect(denial).toMatchObject({ status: 402 });
    expect(denial?.message).toContain('Service key "nightly-batch"');
    expect(denial?.message).toContain('raise');
    expect(denial?.message).toContain('next UTC month (2026-12-01T00:00:00Z)');
  });

  it('states spent, reserved and the budget when strict reservations refuse the call', () => {
    const denial = serviceKeyBudgetCheck(
      budgetInput({ strict: true, costMicros: { spent: 9_000_000, reserved: 2_000_000 } }),
    );
    expect(denial?.message).toContain(
      '$9.00 spent + $2.00 reserved for calls in flight (this one included) of $10.00 this UTC month',
    );
  });
});

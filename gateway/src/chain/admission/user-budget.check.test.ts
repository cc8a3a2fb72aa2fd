import { describe, expect, it } from 'vitest';
import { capInput } from '../../../test/admission-inputs.js';
import { userBudgetCheck } from './user-budget.check.js';

describe('userBudgetCheck', () => {
  it.each([
    ['no budget', { maxUsd: null, costMicros: { spent: 5e9, reserved: 0 } }, false],
    ['under the budget', { maxUsd: 5, costMicros: { spent: 4_999_999, reserved: 0 } }, false],
    ['at the budget', { maxUsd: 5, costMicros: { spent: 5_000_000, reserved: 0 } }, true],
    ['over the budget', { maxUsd: 5, costMicros: { spent: 7_000_000, reserved: 0 } }, true],
    ['counters unavailable: fails open', { maxUsd: 5, costMicros: { spent: null, reserved: 0 } }, false],
    [
      'strict: reservations that fit exactly',
      { maxUsd: 5, strict: true, costMicros: { spent: 1_000_000, reserved: 4_000_000 } },
      false,
    ],
    [
      'strict: one micro-dollar too many',
      { maxUsd: 5, strict: true, costMicros: { spent: 1_000_000, reserved: 4_000_001 } },
      true,
    ],
  ] as const)('%s', (_name, overrides, denied) => {
    const denial = userBudgetCheck(capInput(overrides));
    expect(denial?.code ?? null).toBe(denied ? 'user_budget_exceeded' : null);
  });

  it('reports the spend against the budget', () => {
    expect(userBudgetCheck(capInput({ maxUsd: 5, costMicros: { spent: 5_250_000, reserved: 0 } }))?.message).toContain(
      '$5.25 of $5.00 spent',
    );
  });

  it('states spent, reserved and the cap when strict reservations refuse a call below the cap', () => {
    const message = userBudgetCheck(
      capInput({ maxUsd: 0.06, strict: true, costMicros: { spent: 0, reserved: 160_000 } }),
    )?.message;
    expect(message).toContain('$0.00 spent + $0.16 reserved for calls in flight (this one included) of $0.06');
  });
});

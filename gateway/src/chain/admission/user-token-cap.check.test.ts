import { describe, expect, it } from 'vitest';
import { capInput } from '../../../test/admission-inputs.js';
import { userTokenCapCheck } from './user-token-cap.check.js';

describe('userTokenCapCheck', () => {
  it.each([
    ['no token cap', { monthlyTokens: null, tokens: { spent: 9e9, reserved: 0 } }, false],
    ['under the cap', { monthlyTokens: 1_000, tokens: { spent: 999, reserved: 0 } }, false],
    ['at the cap', { monthlyTokens: 1_000, tokens: { spent: 1_000, reserved: 0 } }, true],
    ['over the cap', { monthlyTokens: 1_000, tokens: { spent: 1_500, reserved: 0 } }, true],
    ['a zero cap blocks everything', { monthlyTokens: 0, tokens: { spent: 0, reserved: 0 } }, true],
    ['counters unavailable: fails open', { monthlyTokens: 1_000, tokens: { spent: null, reserved: 0 } }, false],
    [
      'soft mode ignores reservations',
      { monthlyTokens: 1_000, strict: false, tokens: { spent: 900, reserved: 500 } },
      false,
    ],
    [
      'strict: reservations that fit',
      { monthlyTokens: 1_000, strict: true, tokens: { spent: 500, reserved: 500 } },
      false,
    ],
    [
      'strict: reservations past the cap',
      { monthlyTokens: 1_000, strict: true, tokens: { spent: 500, reserved: 501 } },
      true,
    ],
  ] as const)('%s', (_name, overrides, denied) => {
    const denial = userTokenCapCheck(capInput(overrides));
    expect(denial?.code ?? null).toBe(denied ? 'user_token_cap_exceeded' : null);
    if (denial) expect(denial.status).toBe(402);
  });

  it('states spent, reserved and the cap in strict mode', () => {
    expect(
      userTokenCapCheck(capInput({ monthlyTokens: 1_000, strict: true, tokens: { spent: 500, reserved: 1_024 } }))
        ?.message,
    ).toContain('500 spent + 1,024 reserved for calls in flight (this one included) of 1,000 tokens');
    expect(
      userTokenCapCheck(capInput({ monthlyTokens: 1_000, tokens: { spent: 1_200, reserved: 0 } }))?.message,
    ).toContain('1,200 of 1,000 tokens used');
  });

  it('says when the cap resets, and that never means never', () => {
    expect(userTokenCapCheck(capInput({ monthlyTokens: 10, tokens: { spent: 10, reserved: 0 } }))?.message).toContain(
      '2026-12-01T00:00:00Z',
    );
    expect(
      userTokenCapCheck(
        capInput({ monthlyTokens: 10, reset: 'never', resetsAt: null, tokens: { spent: 10, reserved: 0 } }),
      )?.message,
    ).toContain('does not reset');
  });
});

import { describe, expect, it } from 'vitest';
import { denialError } from './denial-error.js';

describe('denialError', () => {
  it('makes 402 terminal for the SDKs', () => {
    const error = denialError({ status: 402, code: 'user_budget_exceeded', message: 'm', hint: 'h' });
    expect(error).toMatchObject({
      status: 402,
      code: 'user_budget_exceeded',
      retryable: false,
      headers: { 'x-should-retry': 'false' },
    });
  });

  it.each([
    [1, '1', '1'],
    [1_500, '2', '1500'],
    [90_000, '60', '60000'],
  ])(
    'answers 429 after %i ms with Retry-After %s s and retry-after-ms %s (never more than 60 s)',
    (retryAfterMs, seconds, milliseconds) => {
      const error = denialError({ status: 429, code: 'rate_limit_exceeded', message: 'm', hint: 'h', retryAfterMs });
      expect(error.headers).toEqual({ 'retry-after': seconds, 'retry-after-ms': milliseconds });
    },
  );
});

import { describe, expect, it } from 'vitest';
import { unlimited } from '../../../test/admission-inputs.js';
import { rateLimitCheck } from './rate-limit.check.js';

describe('rateLimitCheck', () => {
  it.each([
    ['no limit configured (or the limiter is down: fail open)', null, null],
    ['admitted by the sliding window', { limit: 60, allowed: true, retryAfterMs: 0 }, null],
    [
      'over the limit',
      { limit: 60, allowed: false, retryAfterMs: 1_500 },
      { status: 429, code: 'rate_limit_exceeded', retryAfterMs: 1_500 },
    ],
  ] as const)('%s', (_name, rate, expected) => {
    const denial = rateLimitCheck({ ...unlimited, rate });
    if (expected === null) expect(denial).toBeNull();
    else expect(denial).toMatchObject(expected);
  });

  it('names the limit in the message', () => {
    expect(rateLimitCheck({ ...unlimited, rate: { limit: 42, allowed: false, retryAfterMs: 10 } })?.message).toContain(
      '42 requests per minute',
    );
  });
});

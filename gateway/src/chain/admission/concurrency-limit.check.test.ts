import { describe, expect, it } from 'vitest';
import { unlimited } from '../../../test/admission-inputs.js';
import { concurrencyLimitCheck } from './concurrency-limit.check.js';

describe('concurrencyLimitCheck', () => {
  it.each([
    ['no limit configured (or Coord down: fail open)', null, null],
    ['a slot was free', { limit: 2, acquired: true, retryAfterMs: 1_000 }, null],
    [
      'every slot held',
      { limit: 2, acquired: false, retryAfterMs: 1_200 },
      { status: 429, code: 'concurrency_limit_exceeded', retryAfterMs: 1_200 },
    ],
  ] as const)('%s', (_name, concurrency, expected) => {
    const denial = concurrencyLimitCheck({ ...unlimited, concurrency });
    if (expected === null) expect(denial).toBeNull();
    else expect(denial).toMatchObject(expected);
  });
});

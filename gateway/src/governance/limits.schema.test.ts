import { describe, expect, it } from 'vitest';
import { effectiveLimits, limitsDocument, limitsPutBody } from './limits.schema.js';

const document = limitsDocument.parse({
  defaults: { requestsPerMinute: 600, concurrentRequests: 20 },
  users: { 'ada@example.com': { requestsPerMinute: 60 } },
  keys: { key_1: { concurrentRequests: 2 }, key_2: { requestsPerMinute: null, strictBudget: true } },
});

describe('effectiveLimits: key override, then user override, then default, field by field', () => {
  it.each([
    ['defaults', 'key_9', 'grace@example.com', { requestsPerMinute: 600, concurrentRequests: 20, strictBudget: false }],
    [
      'user override',
      'key_9',
      'ada@example.com',
      { requestsPerMinute: 60, concurrentRequests: 20, strictBudget: false },
    ],
    [
      'key override over user override',
      'key_1',
      'ada@example.com',
      { requestsPerMinute: 60, concurrentRequests: 2, strictBudget: false },
    ],
    [
      'a key override of null lifts the limit',
      'key_2',
      null,
      { requestsPerMinute: null, concurrentRequests: 20, strictBudget: true },
    ],
  ] as const)('%s', (_name, keyId, user, expected) => {
    expect(effectiveLimits(document, keyId, user)).toEqual(expected);
  });

  it('defaults to unlimited', () => {
    expect(effectiveLimits(limitsDocument.parse({}), 'k', null)).toEqual({
      requestsPerMinute: null,
      concurrentRequests: null,
      strictBudget: false,
    });
  });

  it('rejects unknown fields', () => {
    expect(limitsDocument.safeParse({ defaults: { rpm: 5 } }).success).toBe(false);
    expect(limitsPutBody.safeParse({ bogus: 1 }).success).toBe(false);
    expect(limitsPutBody.safeParse({ expectedRevision: 3 }).success).toBe(true);
  });
});

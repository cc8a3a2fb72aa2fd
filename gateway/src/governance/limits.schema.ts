import { addressKey } from '../identity/users/email-address.js';
import { z } from 'zod';

// Rate and concurrency limits exist on /v1/*, values "not shown". These are ours; null means unlimited.
const requestsPerMinute = z
  .int()
  .min(1)
  .max(1_000_000)
  .nullable()
  .describe('Requests admitted per sliding minute per key; null = unlimited');
const concurrentRequests = z
  .int()
  .min(1)
  .max(100_000)
  .nullable()
  .describe('Requests in flight at once per key; null = unlimited');

export const limitValues = z.strictObject({
  requestsPerMinute: requestsPerMinute.optional(),
  concurrentRequests: concurrentRequests.optional(),
});
export const keyLimitValues = limitValues.extend({
  strictBudget: z
    .boolean()
    .optional()
    .describe('Service keys: reserve an estimate against monthlyBudgetUsd before each call (never overshoots)'),
});

/**
 * Runtime limits (`/admin/rate-limits`, `/admin/v1/users/rate-limits`). A key's effective limit is its own override,
 * else its user's override, else the default; each field resolves on its own. Buckets are per key.
 */
export const limitsDocument = z.strictObject({
  defaults: z
    .strictObject({
      requestsPerMinute: requestsPerMinute.default(null),
      concurrentRequests: concurrentRequests.default(null),
    })
    .default({ requestsPerMinute: null, concurrentRequests: null }),
  users: z.record(z.string().min(1).max(320), limitValues).default({}).describe('Overrides for every key of a user'),
  keys: z
    .record(z.string().min(1).max(100), keyLimitValues)
    .default({})
    .describe('Overrides for one key (client or service key id)'),
  strictServiceKeyBudgets: z
    .boolean()
    .default(false)
    .describe('Reserve before each call for every service key with a budget (a key override wins)'),
});
export type LimitsDocument = z.infer<typeof limitsDocument>;

export const limitsPutBody = limitsDocument.extend({ expectedRevision: z.unknown().optional() });

export const limitsResponse = limitsDocument.extend({
  revision: z.int(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});

export const defaultLimits: LimitsDocument = Object.freeze({
  defaults: { requestsPerMinute: null, concurrentRequests: null },
  users: {},
  keys: {},
  strictServiceKeyBudgets: false,
});

/** What admission enforces for one key. */
export interface EffectiveLimits {
  requestsPerMinute: number | null;
  concurrentRequests: number | null;
  strictBudget: boolean;
}

/** Resolve one key's limits: key override → user override → default, field by field. */
export function effectiveLimits(document: LimitsDocument, keyId: string, user: string | null): EffectiveLimits {
  const key = document.keys[keyId];
  const person = user ? (ownEntry(document.users, user) ?? caselessEntry(document.users, user)) : undefined;
  const pick = (field: 'requestsPerMinute' | 'concurrentRequests') =>
    (key?.[field] !== undefined
      ? key[field]
      : person?.[field] !== undefined
        ? person[field]
        : document.defaults[field]) ?? null;
  return {
    requestsPerMinute: pick('requestsPerMinute'),
    concurrentRequests: pick('concurrentRequests'),
    strictBudget: key?.strictBudget ?? document.strictServiceKeyBudgets,
  };
}

const ownEntry = <Value>(record: Record<string, Value>, name: string): Value | undefined =>
  Object.hasOwn(record, name) ? record[name] : undefined;

/** A user override under another spelling of the address: addresses ignore case, as keys and SCIM compare them. */
function caselessEntry<Value>(record: Record<string, Value>, user: string): Value | undefined {
  const address = addressKey(user);
  const name = Object.keys(record).find((candidate) => addressKey(candidate) === address);
  return name === undefined ? undefined : record[name];
}

import type { Coord } from '@gw/platform';
import type { SpendRecord } from '../metering/spend-record.js';
import { addressKey } from '../identity/users/email-address.js';
import { toMicros } from './money.js';
import { counterTtlMs, monthPeriod, type Period } from './period.js';

/** Who usage is counted for: a person (client keys) or a service key. */
export type Subject = { kind: 'user'; id: string } | { kind: 'key'; id: string };

/** What each subject counts per period; money in whole micro-dollars (`money.ts`). */
export const usageFields = ['tokens', 'costMicros', 'savingsMicros', 'tokensSaved', 'requests'] as const;
export type UsageField = (typeof usageFields)[number];
export type UsageTotals = Record<UsageField, number>;

export const emptyUsage: UsageTotals = Object.freeze({
  tokens: 0,
  costMicros: 0,
  savingsMicros: 0,
  tokensSaved: 0,
  requests: 0,
});

/** `gov:user:ada%40example.com:m2026-11:tokens`; ids are URI-encoded so a `:` in a user name cannot collide. */
export function counterKey(subject: Subject, period: Period, field: UsageField): string {
  return `gov:${subject.kind}:${encodeURIComponent(subjectId(subject))}:${period.id}:${field}`;
}

/** A person is counted under the address form keys and SCIM compare (`Dev@Example.com` is `dev@example.com`). */
export function subjectId(subject: Subject): string {
  return subject.kind === 'user' ? addressKey(subject.id) : subject.id;
}

/** The subjects a record counts for: client-key traffic counts for its user, service-key traffic for its key. */
export function subjectsOf(record: Pick<SpendRecord, 'user' | 'keyId' | 'keyType'>): Subject[] {
  if (record.keyType === 'service' && record.keyId) return [{ kind: 'key', id: record.keyId }];
  if (record.user) return [{ kind: 'user', id: record.user }];
  return [];
}

/** The increments one record contributes; only successful calls count. */
export function contributionOf(record: SpendRecord): UsageTotals | null {
  if (record.outcome !== 'success') return null;
  return {
    tokens: record.totalTokens,
    costMicros: toMicros(record.costUsd),
    savingsMicros: toMicros(record.savingsUsd),
    tokensSaved: record.tokensSaved,
    requests: 1,
  };
}

/**
 * Per-subject usage counters in Coord, one set per UTC period, so every replica sees the same month-to-date numbers
 *. Counters expire two days after their period ends.
 */
export class UsageCounters {
  constructor(private readonly coord: Coord) {}

  /** Add a contribution to the subject's counters of `period`; returns the new totals of the fields it touched. */
  async add(
    subject: Subject,
    period: Period,
    contribution: Partial<UsageTotals>,
    now: number,
  ): Promise<Partial<UsageTotals>> {
    const ttlMs = counterTtlMs(period, now);
    const entries = usageFields.filter((field) => (contribution[field] ?? 0) !== 0);
    if (entries.length === 0) return {};
    const values = await this.coord.incrementMany(
      entries.map((field) => ({ key: counterKey(subject, period, field), delta: contribution[field] ?? 0, ttlMs })),
    );
    return Object.fromEntries(entries.map((field, index) => [field, values[index] ?? 0]));
  }

  /** Every field of one subject and period in one round trip. */
  async read(subject: Subject, period: Period): Promise<UsageTotals> {
    const values = await this.coord.getCounters(usageFields.map((field) => counterKey(subject, period, field)));
    return Object.fromEntries(usageFields.map((field, index) => [field, values[index] ?? 0])) as UsageTotals;
  }

  /** Several `(subject, period, field)` counters in one round trip, in the order asked. */
  async readMany(keys: readonly string[]): Promise<number[]> {
    return this.coord.getCounters(keys);
  }

  /** Month-to-date totals of a subject (`/v1/me/usage`). */
  monthToDate(subject: Subject, now: number): Promise<UsageTotals> {
    return this.read(subject, monthPeriod(now));
  }
}

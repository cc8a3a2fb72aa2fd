import { describe, expect, it } from 'vitest';
import type { SpendRecord } from '../metering/spend-record.js';
import type { CapAlerts } from './cap-alerts.js';
import { meterBatch, type MeterBatchDeps } from './meter-batch.js';
import type { Period } from './period.js';
import type { UserCap } from './user-caps.store.js';
import type { Subject, UsageCounters, UsageTotals } from './usage-counters.js';

const now = Date.UTC(2026, 10, 24, 12);

function record(fields: Partial<SpendRecord>): SpendRecord {
  return {
    outcome: 'success',
    ts: new Date(now).toISOString(),
    totalTokens: 100,
    costUsd: 0.5,
    savingsUsd: 0,
    tokensSaved: 0,
    keyType: 'client',
    keyId: 'key-1',
    user: 'ada@example.com',
    traceId: 't',
    ...fields,
  } as SpendRecord;
}

function cap(user: string, reset: UserCap['reset']): UserCap {
  return {
    user,
    monthlyTokens: 1_000,
    maxUsd: 10,
    softUsd: null,
    reset,
    strict: false,
    alertThresholds: null,
    webhookSealed: null,
    webhookOwner: user,
    revision: 1,
    updatedAt: '',
    updatedBy: '',
  };
}

/** Counters that remember every add (one per subject, period and batch) and keep running totals. */
function recordingDeps(caps: Record<string, UserCap>, failFor?: string) {
  const adds: Array<{ subject: string; period: string; contribution: Partial<UsageTotals> }> = [];
  const totals = new Map<string, number>();
  const evaluated: Array<{ user: string; period: string; usage: { tokens: number; costMicros: number } }> = [];
  const budgets: Array<[string, number]> = [];
  const counters = {
    async add(subject: Subject, period: Period, contribution: Partial<UsageTotals>) {
      if (subject.id === failFor) throw new Error('coord unreachable');
      adds.push({ subject: `${subject.kind}:${subject.id}`, period: period.id, contribution });
      const result: Partial<UsageTotals> = {};
      for (const [field, value] of Object.entries(contribution) as Array<[keyof UsageTotals, number]>) {
        const key = `${subject.id}:${period.id}:${field}`;
        totals.set(key, (totals.get(key) ?? 0) + value);
        result[field] = totals.get(key);
      }
      return result;
    },
  } as unknown as UsageCounters;
  const alerts = {
    async evaluate(entry: UserCap, period: Period, usage: { tokens: number; costMicros: number }) {
      evaluated.push({ user: entry.user, period: period.id, usage });
    },
  } as unknown as CapAlerts;
  const deps: MeterBatchDeps = {
    counters,
    alerts,
    caps: { get: (user) => caps[user] },
    keyBudget: (keyId) => (keyId === 'svc-1' ? 20 : undefined),
    setBudgetRemaining: (keyId, remaining) => budgets.push([keyId, remaining]),
  };
  return { deps, adds, evaluated, budgets };
}

describe('meterBatch', () => {
  it('adds a batch once per subject and period, with the summed contribution of its successful records', async () => {
    const { deps, adds, evaluated, budgets } = recordingDeps({
      'ada@example.com': cap('ada@example.com', 'monthly'),
      'bo@example.com': cap('bo@example.com', 'daily'),
    });
    const batch = [
      record({ user: 'ada@example.com' }),
      record({ user: 'ada@example.com', totalTokens: 50, costUsd: 0.25 }),
      record({ user: 'ada@example.com', outcome: 'error' }),
      record({ user: 'bo@example.com', totalTokens: 7 }),
      record({ keyType: 'service', keyId: 'svc-1', user: null, costUsd: 2 }),
      record({ keyType: 'service', keyId: 'svc-1', user: null, costUsd: 3 }),
    ];
    expect(await meterBatch(deps, batch, now)).toEqual({ failedRecords: 0, firstError: undefined });
    expect(adds).toEqual([
      {
        subject: 'user:ada@example.com',
        period: 'm2026-11',
        contribution: { tokens: 150, costMicros: 750_000, savingsMicros: 0, tokensSaved: 0, requests: 2 },
      },
      {
        subject: 'user:bo@example.com',
        period: 'm2026-11',
        contribution: { tokens: 7, costMicros: 500_000, savingsMicros: 0, tokensSaved: 0, requests: 1 },
      },
      {
        subject: 'user:bo@example.com',
        period: 'd2026-11-24',
        contribution: { tokens: 7, costMicros: 500_000, savingsMicros: 0, tokensSaved: 0, requests: 0 },
      },
      {
        subject: 'key:svc-1',
        period: 'm2026-11',
        contribution: { tokens: 200, costMicros: 5_000_000, savingsMicros: 0, tokensSaved: 0, requests: 2 },
      },
    ]);
    // Alerts see each cap's own period, once per batch, with the totals after the batch.
    expect(evaluated).toEqual([
      { user: 'ada@example.com', period: 'm2026-11', usage: { tokens: 150, costMicros: 750_000 } },
      { user: 'bo@example.com', period: 'd2026-11-24', usage: { tokens: 7, costMicros: 500_000 } },
    ]);
    expect(budgets).toEqual([['svc-1', 15]]);
  });

  it('keeps counting the other subjects when one subject cannot be counted, and says how many records were missed', async () => {
    const { deps, adds } = recordingDeps({}, 'bo@example.com');
    const outcome = await meterBatch(
      deps,
      [record({ user: 'bo@example.com' }), record({ user: 'bo@example.com' }), record({ user: 'ada@example.com' })],
      now,
    );
    expect(outcome.failedRecords).toBe(2);
    expect(String(outcome.firstError)).toContain('coord unreachable');
    expect(adds.map((add) => add.subject)).toEqual(['user:ada@example.com']);
  });

  it('counts a failed record once even when both its month and its cap period could not be counted', async () => {
    const { deps } = recordingDeps({ 'bo@example.com': cap('bo@example.com', 'daily') }, 'bo@example.com');
    expect((await meterBatch(deps, [record({ user: 'bo@example.com' })], now)).failedRecords).toBe(1);
  });
});

import type { SpendRecord } from '../metering/spend-record.js';
import type { CapAlerts } from './cap-alerts.js';
import { fromMicros } from './money.js';
import { monthPeriod, periodOf, type Period } from './period.js';
import type { UserCap } from './user-caps.store.js';
import {
  contributionOf,
  subjectsOf,
  usageFields,
  type Subject,
  type UsageCounters,
  type UsageTotals,
} from './usage-counters.js';

/** One counter set to add to: a subject in a period, with the summed contribution of every record of the batch. */
interface CounterGroup {
  readonly subject: Subject;
  readonly period: Period;
  readonly sum: UsageTotals;
  /** The user's cap, when this group is the cap's own period. */
  readonly cap: UserCap | null;
  /** The records summed here (a record of a user with a non-monthly cap is in two groups). */
  readonly records: SpendRecord[];
}

export interface MeterBatchDeps {
  readonly counters: UsageCounters;
  readonly alerts: CapAlerts;
  readonly caps: { get(user: string): UserCap | undefined };
  /** Monthly budget of a service key, when admission has seen it. */
  readonly keyBudget: (keyId: string) => number | undefined;
  readonly setBudgetRemaining: (keyId: string, remainingUsd: number) => void;
}

export interface MeterBatchOutcome {
  /** Records whose counters could not be updated (Coord unreachable); reconciliation restores them. */
  readonly failedRecords: number;
  readonly firstError: unknown;
}

function addTo(
  groups: Map<string, CounterGroup>,
  record: SpendRecord,
  subject: Subject,
  period: Period,
  cap: UserCap | null,
  contribution: Partial<UsageTotals>,
): void {
  const key = `${subject.kind}\u0000${subject.id}\u0000${period.id}`;
  let group = groups.get(key);
  if (!group) {
    group = {
      subject,
      period,
      cap,
      sum: { tokens: 0, costMicros: 0, savingsMicros: 0, tokensSaved: 0, requests: 0 },
      records: [],
    };
    groups.set(key, group);
  }
  for (const field of usageFields) group.sum[field] += contribution[field] ?? 0;
  group.records.push(record);
}

/**
 * The counter groups of a batch: every successful record counts in its subject's month (budgets, `/v1/me/usage`,
 * monthly caps) and, for a user whose cap resets daily, weekly or never, in that cap's period too (tokens and cost).
 */
function groupBatch(records: readonly SpendRecord[], caps: MeterBatchDeps['caps'], now: number): CounterGroup[] {
  const groups = new Map<string, CounterGroup>();
  for (const record of records) {
    const contribution = contributionOf(record);
    if (!contribution) continue;
    const at = Date.parse(record.ts) || now;
    for (const subject of subjectsOf(record)) {
      const cap = subject.kind === 'user' ? (caps.get(subject.id) ?? null) : null;
      addTo(groups, record, subject, monthPeriod(at), cap?.reset === 'monthly' ? cap : null, contribution);
      if (cap && cap.reset !== 'monthly')
        addTo(groups, record, subject, periodOf(cap.reset, at), cap, {
          tokens: contribution.tokens,
          costMicros: contribution.costMicros,
        });
    }
  }
  return [...groups.values()];
}

/**
 * Adds a batch of spend records to the usage counters with one increment per subject, period and field instead of
 * one per record: under load the records of one event-loop turn mostly share a few users, and each increment is a
 * Coord round trip (Redis) or a promise chain (memory). Then the budget gauge and cap alerts see the new totals. A
 * group that fails leaves the others counted.
 */
export async function meterBatch(
  deps: MeterBatchDeps,
  records: readonly SpendRecord[],
  now: number,
): Promise<MeterBatchOutcome> {
  const groups = groupBatch(records, deps.caps, now);
  const settled = await Promise.allSettled(
    groups.map(async (group) => {
      const totals = await deps.counters.add(group.subject, group.period, group.sum, now);
      if (group.subject.kind === 'key') {
        const budget = deps.keyBudget(group.subject.id);
        if (budget !== undefined && totals.costMicros !== undefined)
          deps.setBudgetRemaining(group.subject.id, budget - fromMicros(totals.costMicros));
      } else if (group.cap) {
        await deps.alerts.evaluate(group.cap, group.period, {
          tokens: totals.tokens ?? 0,
          costMicros: totals.costMicros ?? 0,
        });
      }
    }),
  );
  const failed = new Set<SpendRecord>();
  let firstError: unknown;
  settled.forEach((result, index) => {
    if (result.status === 'fulfilled') return;
    for (const record of groups[index]?.records ?? []) failed.add(record);
    firstError ??= result.reason;
  });
  return { failedRecords: failed.size, firstError };
}

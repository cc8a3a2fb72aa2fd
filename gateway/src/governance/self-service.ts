import { isoInstant } from '@gw/platform';
import type { Db } from '@gw/platform';
import type { Identity } from '../identity/caller.js';
import { capViewOf } from './cap-views.js';
import type { Governance } from './governance.js';
import { fromMicros, limitMicros } from './money.js';
import { monthPeriod } from './period.js';
import { type Subject, type UsageTotals } from './usage-counters.js';

const subjectOf = (identity: Identity): Subject =>
  identity.keyType === 'service'
    ? { kind: 'key', id: identity.keyId }
    : { kind: 'user', id: identity.user ?? identity.keyId };

async function storedUsage(db: Db, subject: Subject, start: number, end: number): Promise<UsageTotals> {
  const filter =
    subject.kind === 'key'
      ? "key_id = $3 AND key_type = 'service'"
      : "user_id = $3 AND key_type IS DISTINCT FROM 'service'";
  const { rows } = await db.query<Record<string, string | number | null>>(
    `SELECT COALESCE(sum(total_tokens), 0) AS tokens, COALESCE(sum(round(cost_usd * 1000000)), 0) AS cost, COALESCE(sum(round(savings_usd * 1000000)), 0) AS savings,
            COALESCE(sum(tokens_saved), 0) AS saved, count(*) AS requests
       FROM gw_spend WHERE outcome = 'success' AND ts >= $1 AND ts < $2 AND ${filter}`,
    [new Date(start), new Date(end), subject.id],
  );
  const row = rows[0] ?? {};
  return {
    tokens: Number(row.tokens ?? 0),
    costMicros: Number(row.cost ?? 0),
    savingsMicros: Number(row.savings ?? 0),
    tokensSaved: Number(row.saved ?? 0),
    requests: Number(row.requests ?? 0),
  };
}

/** `GET /v1/me/usage`: month-to-date tokens and savings from the live counters, or from `gw_spend` when Coord is down. */
/** What the self-service reads use of governance. */
export type UsageSource = Pick<Governance, 'usageTotals'>;
export type LimitsSource = Pick<Governance, 'capOf' | 'capUsages' | 'effectiveLimits' | 'usageTotals'>;

export async function usageFor(governance: UsageSource, db: Db, identity: Identity, now: number) {
  const subject = subjectOf(identity);
  const month = monthPeriod(now);
  let totals: UsageTotals;
  let source: 'counters' | 'store' = 'counters';
  try {
    totals = await governance.usageTotals(subject, month);
  } catch {
    source = 'store';
    totals = await storedUsage(db, subject, month.start, month.end as number);
  }
  return {
    subject: { kind: subject.kind === 'key' ? ('service-key' as const) : ('user' as const), id: subject.id },
    period: {
      month: month.id.slice(1),
      start: isoInstant(month.start),
      end: isoInstant(month.end as number),
    },
    requests: totals.requests,
    tokens: totals.tokens,
    costUsd: fromMicros(totals.costMicros),
    savingsUsd: fromMicros(totals.savingsMicros),
    tokensSaved: totals.tokensSaved,
    source,
  };
}

/** `GET /v1/me/limits`: the caps and budgets that would 402 this identity, and the limits that would 429 it. */
export async function limitsFor(governance: LimitsSource, identity: Identity, now: number) {
  const cap = identity.keyType === 'client' && identity.user ? governance.capOf(identity.user) : undefined;
  const capView = cap ? capViewOf(cap, (await governance.capUsages([cap], now))?.get(cap.user) ?? null, now) : null;
  const budgetUsd = identity.keyType === 'service' ? (identity.key.monthlyBudgetUsd ?? 0) : 0;
  const effective = governance.effectiveLimits(identity.keyId, identity.user);
  let serviceKeyBudget = null;
  if (budgetUsd > 0) {
    const month = monthPeriod(now);
    const spent = await governance.usageTotals({ kind: 'key', id: identity.keyId }, month).then(
      (totals) => totals.costMicros,
      () => null,
    );
    serviceKeyBudget = {
      monthlyBudgetUsd: budgetUsd,
      usedUsd: spent === null ? null : fromMicros(spent),
      remainingUsd: spent === null ? null : fromMicros(limitMicros(budgetUsd) - spent),
      resetsAt: isoInstant(month.end as number),
      strict: effective.strictBudget,
      status:
        spent === null
          ? ('unknown' as const)
          : spent >= limitMicros(budgetUsd)
            ? ('over' as const)
            : ('under' as const),
    };
  }
  return {
    userCap: capView
      ? {
          monthlyTokens: capView.monthlyTokens,
          maxUsd: capView.maxUsd,
          softUsd: capView.softUsd,
          reset: capView.reset,
          strict: capView.strict,
          periodStart: capView.periodStart,
          resetsAt: capView.resetsAt,
          tokensUsed: capView.usage,
          usdUsed: capView.budgetUsage,
          status: capView.status,
        }
      : null,
    serviceKeyBudget,
    rateLimits: { requestsPerMinute: effective.requestsPerMinute, concurrentRequests: effective.concurrentRequests },
  };
}

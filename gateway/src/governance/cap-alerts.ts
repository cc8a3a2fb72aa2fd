import { isoInstant } from '@gw/platform';
import type { Clock, Coord, Logger } from '@gw/platform';
import type { GovernanceMetrics } from '../metering/governance-metrics.js';
import { formatUsd, fromMicros, limitMicros } from './money.js';
import { counterTtlMs, type Period } from './period.js';
import type { UserCap, UserCapStore } from './user-caps.store.js';
import { defaultThresholds } from './user-caps.schema.js';
import type { WebhookSend } from './webhook-sender.js';

export type AlertKind = 'tokens' | 'usd' | 'soft';

/** A crossing worth telling someone about: the highest threshold newly reached in this period. */
export interface CapCrossing {
  kind: AlertKind;
  thresholdPercent: number;
  used: number;
  limit: number;
}

/** Pure: which (kind, threshold) pairs the usage has reached. Thresholds are percents of the token cap and budget. */
export function reachedThresholds(
  cap: Pick<UserCap, 'monthlyTokens' | 'maxUsd' | 'softUsd'>,
  thresholds: readonly number[],
  usage: { tokens: number; costMicros: number },
): CapCrossing[] {
  const reached: CapCrossing[] = [];
  const add = (kind: AlertKind, used: number, limit: number | null) => {
    if (limit === null || limit <= 0) return;
    for (const threshold of thresholds)
      if (used * 100 >= threshold * limit) reached.push({ kind, thresholdPercent: threshold, used, limit });
  };
  add('tokens', usage.tokens, cap.monthlyTokens);
  add('usd', usage.costMicros, cap.maxUsd === null ? null : limitMicros(cap.maxUsd));
  if (cap.softUsd !== null && cap.softUsd > 0 && usage.costMicros >= limitMicros(cap.softUsd))
    reached.push({ kind: 'soft', thresholdPercent: 100, used: usage.costMicros, limit: limitMicros(cap.softUsd) });
  return reached;
}

/** The content-free payload: Slack reads `text`; the rest is our event for other receivers. */
export function alertPayload(user: string, crossing: CapCrossing, period: Period): Record<string, unknown> {
  const money = crossing.kind !== 'tokens';
  const used = money ? formatUsd(fromMicros(crossing.used)) : crossing.used.toLocaleString('en-US');
  const limit = money ? formatUsd(fromMicros(crossing.limit)) : `${crossing.limit.toLocaleString('en-US')} tokens`;
  const what = crossing.kind === 'tokens' ? 'token cap' : crossing.kind === 'usd' ? 'USD budget' : 'soft USD threshold';
  const resets = period.end === null ? 'The cap does not reset.' : `It resets at ${isoInstant(period.end)}.`;
  return {
    text: `gw: ${user} has used ${crossing.kind === 'soft' ? 'past' : `${crossing.thresholdPercent}% of`} their ${what} (${used} of ${limit}). ${resets}`,
    event: 'user_cap.threshold_reached',
    user,
    kind: crossing.kind,
    thresholdPercent: crossing.thresholdPercent,
    used: money ? fromMicros(crossing.used) : crossing.used,
    limit: money ? fromMicros(crossing.limit) : crossing.limit,
    period: period.id,
    resetsAt: period.end === null ? null : isoInstant(period.end),
  };
}

const claimKey = (user: string, period: Period, crossing: CapCrossing) =>
  `gov:alert:${encodeURIComponent(user)}:${period.id}:${crossing.kind}:${crossing.thresholdPercent}`;

/**
 * Cap-approach alerts: once per threshold per period, across replicas, by claiming the threshold with
 * Coord `setIfAbsent`. A failed delivery gives the claim back so the next metered request tries again.
 */
export class CapAlerts {
  // Claims this replica already settled, so a user past a threshold does not cost a Coord call per request.
  private readonly settled = new Set<string>();

  constructor(
    private readonly deps: {
      coord: Coord;
      clock: Clock;
      logger: Logger;
      caps: UserCapStore;
      send: WebhookSend;
      metrics: GovernanceMetrics;
    },
  ) {}

  async evaluate(cap: UserCap, period: Period, usage: { tokens: number; costMicros: number }): Promise<void> {
    const map = this.deps.caps.state().alerts;
    const sealed = cap.webhookSealed ?? map.webhookSealed;
    if (!sealed) return;
    const thresholds = cap.alertThresholds ?? map.thresholdsPercent ?? defaultThresholds;
    const fresh: CapCrossing[] = [];
    for (const crossing of reachedThresholds(cap, thresholds, usage)) {
      const claim = claimKey(cap.user, period, crossing);
      if (this.settled.has(claim)) continue;
      this.settled.add(claim);
      if (
        await this.deps.coord.setIfAbsent(claim, '1', counterTtlMs(period, this.deps.clock.now()) ?? 400 * 86_400_000)
      )
        fresh.push(crossing);
    }
    if (this.settled.size > 50_000) this.settled.clear();
    // One message per kind: the highest threshold reached now (80 and 100 crossed by one request send "100%").
    for (const kind of ['tokens', 'usd', 'soft'] as const) {
      const top = fresh
        .filter((crossing) => crossing.kind === kind)
        .sort((a, b) => b.thresholdPercent - a.thresholdPercent)[0];
      if (top)
        await this.deliver(
          cap,
          sealed,
          top,
          period,
          fresh.filter((crossing) => crossing.kind === kind),
        );
    }
  }

  private async deliver(
    cap: UserCap,
    sealed: string,
    crossing: CapCrossing,
    period: Period,
    claimed: CapCrossing[],
  ): Promise<void> {
    try {
      const url = this.deps.caps.unsealWebhook(sealed, cap.webhookSealed ? cap.webhookOwner : null);
      await this.deps.send(url, alertPayload(cap.user, crossing, period));
      this.deps.metrics.capAlerts.inc({ kind: crossing.kind, outcome: 'delivered' });
    } catch (error) {
      this.deps.metrics.capAlerts.inc({ kind: crossing.kind, outcome: 'failed' });
      this.deps.logger.warn(
        { err: error, kind: crossing.kind, thresholdPercent: crossing.thresholdPercent },
        'cap alert not delivered; will retry on the next request',
      );
      for (const item of claimed) {
        const claim = claimKey(cap.user, period, item);
        this.settled.delete(claim);
        await this.deps.coord.delete(claim).catch(() => undefined);
      }
    }
  }
}

import type { Logger } from '@gw/platform';
import { BillingCallFailed, type BillingClient } from './billing-client.js';
import { holdLease, type LeaseHolderDeps } from './lease-holder.js';

export type RefreshOutcome = 'refreshed' | 'not-needed' | 'waiting' | 'failed';

export interface LeaseRefresherOptions extends LeaseHolderDeps {
  billing: BillingClient;
  logger: Logger;
  /** Refresh once the held lease ends within this long (default six hours). */
  windowMs?: number;
  /** Between two refresh attempts, unless billing asked for longer with Retry-After (default 15 minutes). */
  spacingMs?: number;
}

const hour = 60 * 60_000;

/**
 * `GET /v1/entitlement`: when reports keep failing (billing
 * refusing a report it cannot read, say), the gateway still asks for a fresh lease before the one it holds runs out,
 * so a metering fault does not stop inference. Billing throttles the route per deployment; its Retry-After is obeyed.
 */
export class LeaseRefresher {
  private nextAttemptAt = 0;

  constructor(private readonly options: LeaseRefresherOptions) {}

  async afterFailedReport(): Promise<RefreshOutcome> {
    const now = this.options.clock.now();
    const { payload } = this.options.gate.verdict();
    const windowMs = this.options.windowMs ?? 6 * hour;
    if (payload !== null && Date.parse(payload.expiresAt) - now > windowMs) return 'not-needed';
    if (now < this.nextAttemptAt) return 'waiting';
    this.nextAttemptAt = now + (this.options.spacingMs ?? hour / 4);
    try {
      const check = await holdLease(this.options, await this.options.billing.entitlement(this.options.deploymentId));
      if (check.ok) return 'refreshed';
      this.options.logger.error(
        { reason: check.reason },
        'billing answered the entitlement refresh with a lease that does not verify',
      );
      return 'failed';
    } catch (error) {
      if (!(error instanceof BillingCallFailed)) throw error;
      if (error.retryAfterSeconds !== null)
        this.nextAttemptAt = Math.max(this.nextAttemptAt, now + error.retryAfterSeconds * 1000);
      this.options.logger.warn(
        { code: error.code, status: error.httpStatus },
        'entitlement refresh failed; keeping the last lease',
      );
      return 'failed';
    }
  }
}

import type { AppError } from '@gw/platform';
import {
  leaseVerdictOf,
  readStoredLease,
  sqlStateOf,
  verifyLease,
  type Clock,
  type LeaseCheck,
  type LeaseTrustStore,
  type LeaseVerdict,
  type Logger,
  type Queryable,
} from '@gw/platform';
import { gatewayError } from '../errors.js';

/** Where the lease this replica holds came from: billing's answer to it, or the shared store another replica wrote. */
export type LeaseSource = 'billing' | 'store' | 'none';

export interface EntitlementGateOptions {
  db: Queryable;
  deploymentId: string;
  trust: LeaseTrustStore;
  clock: Clock;
  logger: Logger;
  refreshMs?: number;
}

const suspended = () => gatewayError('subscription_suspended');
const expired = () => gatewayError('entitlement_expired');

/**
 * The entitlement kill-switch of the `/v1/*` chain: suspended → 403, expired or unverifiable → 402.
 * `denial()` runs on every request and never touches the store: it judges the last verified lease against the clock,
 * so a lease that runs out between refreshes is refused at once. A timer re-reads the shared store, which is how the
 * replicas that did not send the report learn the new lease. No lease at all is served (the readiness route keeps a
 * metered gateway out of rotation until it has one); `optimizerEnabled: false` pauses only the optimizer.
 */
export class EntitlementGate {
  private check: LeaseCheck | null = null;
  private source: LeaseSource = 'none';
  private timer: NodeJS.Timeout | null = null;
  private readFailed = false;
  /** Why the stored lease was last refused; a warning is logged when this changes, not on every refresh. */
  private rejectedFor: string | null = null;

  constructor(private readonly options: EntitlementGateOptions) {}

  async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.options.refreshMs ?? 15_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  verdict(): LeaseVerdict {
    return leaseVerdictOf(this.check, this.options.clock.now());
  }

  get leaseSource(): LeaseSource {
    return this.source;
  }

  denial(): AppError | null {
    if (this.check === null) return null;
    const { state } = this.verdict();
    if (state === 'suspended') return suspended();
    if (state === 'expired' || state === 'unverifiable') return expired();
    return null;
  }

  /** A lease billing just answered with (already verified by the caller): held at once, before the store round trip. */
  accept(check: Extract<LeaseCheck, { ok: true }>): void {
    if (this.isOlderThanHeld(check)) return;
    this.check = check;
    this.source = 'billing';
  }

  /** Re-read the shared store. A failed read keeps what is held: a store blip must neither open nor close the gate. */
  async refresh(): Promise<void> {
    try {
      const stored = await readStoredLease(this.options.db, this.options.deploymentId);
      this.readFailed = false;
      if (!stored) return;
      const check = verifyLease(stored.lease, this.options.trust, this.options.deploymentId);
      if (!check.ok) {
        if (this.check?.ok !== true) this.check = check;
        if (this.rejectedFor !== check.reason)
          this.options.logger.warn({ reason: check.reason }, 'stored entitlement lease does not verify');
        this.rejectedFor = check.reason;
        return;
      }
      this.rejectedFor = null;
      if (this.isOlderThanHeld(check)) return;
      if (this.check?.ok !== true || this.check.payload.issuedAt !== check.payload.issuedAt) this.source = 'store';
      this.check = check;
    } catch (error) {
      if (!this.readFailed)
        this.options.logger.warn(
          { code: sqlStateOf(error) },
          'entitlement lease could not be read from the store; keeping the last one',
        );
      this.readFailed = true;
    }
  }

  private isOlderThanHeld(check: Extract<LeaseCheck, { ok: true }>): boolean {
    return this.check?.ok === true && Date.parse(check.payload.issuedAt) < Date.parse(this.check.payload.issuedAt);
  }
}

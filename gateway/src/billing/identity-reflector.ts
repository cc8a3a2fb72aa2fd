import { enrollmentIdentitiesMaxBatch } from '@gw/contracts';
import type { Clock, Logger } from '@gw/platform';
import { BillingCallFailed, type BillingClient } from './billing-client.js';
import type { EnrollmentOutboxStore } from './enrollment-outbox.store.js';
import { Rounds } from '../shared/rounds.js';
import type { IdentityReflectionReport } from '../admin/settings/health.operations.js';

export interface IdentityReflectorOptions {
  outbox: EnrollmentOutboxStore;
  billing: BillingClient;
  clock: Clock;
  logger: Logger;
  deploymentId: string;
  /** How often a replica looks for due rows (a SCIM write is reported on the next look). */
  intervalMs: number;
  /** At most this many requests in one round, so a huge roster is reported over several rounds. */
  maxBatchesPerRound?: number;
}

/**
 * SCIM reflection to billing: every interval, the identities the outbox holds as changed are sent to
 * `PUT /v1/enrollment-identities` in batches of at most 100. Delivery is at least once and idempotent: billing keeps
 * the highest revision per identity, a row leaves the outbox only once billing accepted it, and a failure leaves
 * it for a later round with exponential backoff (the outbox's). Replicas share the outbox without sending a row twice
 * at once (`SKIP LOCKED` claims).
 */
export class IdentityReflector {
  private readonly rounds = new Rounds(
    () => this.round(),
    () => this.options.intervalMs,
  );
  lastError: { code: string; at: string } | null = null;

  constructor(private readonly options: IdentityReflectorOptions) {}

  start(): void {
    this.rounds.schedule();
  }

  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /** One round (also what the timer runs); resolves when it is done, whatever happened. */
  runOnce(): Promise<void> {
    return this.rounds.runOnce();
  }

  /** The backlog and this replica's last failure, for `/admin/health`. */
  async report(): Promise<IdentityReflectionReport> {
    return { configured: true, ...(await this.options.outbox.backlog()), lastError: this.lastError };
  }

  private async round(): Promise<void> {
    const { outbox, billing, clock, deploymentId } = this.options;
    for (let batch = 0; batch < (this.options.maxBatchesPerRound ?? 50); batch += 1) {
      let claimed;
      try {
        claimed = await outbox.claim(clock.now(), enrollmentIdentitiesMaxBatch);
      } catch (error) {
        this.options.logger.warn({ err: error }, 'identity reflection could not read its outbox');
        return;
      }
      if (claimed.length === 0) return;
      try {
        await billing.putEnrollmentIdentities({ deploymentId, identities: claimed.map((row) => row.identity) });
        await outbox.delivered(claimed);
        this.lastError = null;
      } catch (error) {
        const code = error instanceof BillingCallFailed ? error.code : 'identity_outbox_error';
        this.lastError = { code, at: new Date(clock.now()).toISOString() };
        this.options.logger.warn({ code, identities: claimed.length }, 'billing did not take the enrolled identities');
        await outbox
          .failed(
            claimed.map((row) => row.identityHash),
            clock.now(),
            code,
          )
          .catch((storeError: unknown) =>
            this.options.logger.warn({ err: storeError }, 'identity outbox write failed'),
          );
        return;
      }
    }
  }
}

import {
  leaseVerdictOf,
  readStoredLease,
  sqlStateOf,
  verifyLease,
  type Clock,
  type LeaseCheck,
  type LeaseState,
  type LeaseTrustStore,
  type Queryable,
} from '@gw/platform';
import type { FastifyBaseLogger } from 'fastify';
import { storeReadTimeoutMs, withTimeout } from '../store/with-timeout.js';
import type { LeaseReader, LeaseVerdict } from './lease-reader.js';

/** The gateway has not run its lease migration yet: there is no lease to read, which is not a read failure. */
const undefinedTable = '42P01';

export interface StoredLeaseReaderOptions {
  /** The shared store the gateway writes the lease into (`gw_entitlement_lease`). */
  db: Queryable;
  deploymentId: string;
  trust: LeaseTrustStore;
  clock: Clock;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  refreshMs?: number;
}

/** What the last successful read found: no row (null) or the row's verification result. */
type LastRead = { check: LeaseCheck | null } | null;

/**
 * The verified entitlement lease: the gateway-stored row is re-read and re-verified on a
 * timer, and `current()` judges the kept check against the clock at call time, so a lease that expires between two
 * refreshes is refused at once and the request path never touches the store.
 */
export class StoredLeaseReader implements LeaseReader {
  private last: LastRead = null;
  private loggedState: LeaseVerdict['state'] | null = null;
  private reading: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: StoredLeaseReaderOptions) {}

  /** One read before the first request, then the timer. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer ??= setInterval(() => void this.refresh(), this.options.refreshMs ?? 15_000).unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  current(): LeaseVerdict {
    // Nothing read yet (store down since start): "restarting never clears the gate", so a restart during an
    // outage must not turn an expired or suspended lease into "no lease at all".
    if (this.last === null) return { state: 'unverifiable' };
    return { state: optimizerState(leaseVerdictOf(this.last.check, this.options.clock.now()).state) };
  }

  /**
   * Re-read and re-verify; a failed read keeps the last result. Never rejects. A call while a read is out joins that
   * read: a store slower than the refresh period must not pile up reads, nor let an older answer overwrite a newer
   * one.
   */
  refresh(): Promise<void> {
    this.reading ??= this.readAndVerify().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  /** The read in progress (the timer's or anyone's), or none: lets a caller wait for exactly that read to land. */
  settled(): Promise<void> {
    return this.reading ?? Promise.resolve();
  }

  private async readAndVerify(): Promise<void> {
    try {
      this.last = { check: await this.read() };
    } catch (error) {
      // The error is the store's (connection, timeout), never the row: the lease itself is not logged.
      const keeping = this.last === null ? 'unverifiable until a read succeeds' : 'keeping the last lease read';
      this.options.logger.warn(
        { err: error, sqlState: sqlStateOf(error) },
        `entitlement lease read failed; ${keeping}`,
      );
    }
    this.logTransition();
  }

  private async read(): Promise<LeaseCheck | null> {
    const { db, deploymentId, trust } = this.options;
    try {
      const stored = await withTimeout(readStoredLease(db, deploymentId), storeReadTimeoutMs);
      return stored ? verifyLease(stored.lease, trust, deploymentId) : null;
    } catch (error) {
      if (sqlStateOf(error) === undefinedTable) return null;
      throw error;
    }
  }

  private logTransition(): void {
    const { state } = this.current();
    if (state === this.loggedState) return;
    const reason = this.last?.check && !this.last.check.ok ? this.last.check.reason : undefined;
    this.options.logger.info(
      { from: this.loggedState, to: state, ...(reason ? { reason } : {}) },
      'entitlement lease state',
    );
    this.loggedState = state;
  }
}

function optimizerState(state: LeaseState): LeaseVerdict['state'] {
  return state === 'active' ? 'valid' : state;
}

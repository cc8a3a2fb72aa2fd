import { isoInstant } from '@gw/platform';
import type { Logger } from '@gw/platform';
import { KubeApiError, type KubeApi, type KubeObject } from '../kube/kube-api.js';
import type { Timers } from './timers.js';

export interface LeaderElectionOptions {
  api: KubeApi;
  timers: Timers;
  logger: Logger;
  namespace: string;
  name: string;
  identity: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  onStartedLeading(): void;
  onStoppedLeading(): void;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

type Lease = KubeObject & { spec?: LeaseSpec };

function leaseOf(object: KubeObject): Lease;
function leaseOf(object: KubeObject | null): Lease | null;
function leaseOf(object: KubeObject | null): Lease | null {
  return object;
}

function microTime(milliseconds: number): string {
  return isoInstant(milliseconds).replace(/Z$/, '000Z');
}

/**
 * Leader election on a coordination.k8s.io/v1 Lease, as client-go does it: every write is a compare-and-swap on
 * resourceVersion, so two replicas never both lead. Expiry is judged by when this replica last
 * saw the record change, not by the holder's clock.
 */
export class LeaderElector {
  private leading = false;
  private observed = { record: '', at: 0 };
  private lastRenewal = 0;
  private handle: unknown;
  private running = false;

  constructor(private readonly options: LeaderElectionOptions) {}

  get isLeader(): boolean {
    return this.leading;
  }

  private get leaseDurationMs(): number {
    return this.options.leaseDurationMs ?? 15_000;
  }

  private ref() {
    return {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      namespace: this.options.namespace,
      name: this.options.name,
    };
  }

  private spec(now: number, previous?: LeaseSpec): LeaseSpec {
    const keepsHolder = previous?.holderIdentity === this.options.identity;
    return {
      holderIdentity: this.options.identity,
      leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1_000),
      acquireTime: keepsHolder && previous?.acquireTime ? previous.acquireTime : microTime(now),
      renewTime: microTime(now),
      leaseTransitions: (previous?.leaseTransitions ?? 0) + (keepsHolder || previous === undefined ? 0 : 1),
    };
  }

  /** One attempt to acquire or renew; returns whether this replica leads afterwards. */
  async step(): Promise<boolean> {
    const now = this.options.timers.now();
    const ok = await this.tryAcquireOrRenew(now).catch((error: unknown) => {
      this.options.logger.warn({ err: error, lease: this.options.name }, 'leader election attempt failed');
      return false;
    });
    if (ok) {
      this.lastRenewal = now;
      this.setLeading(true);
    } else if (this.leading && now - this.lastRenewal >= (this.options.renewDeadlineMs ?? 10_000)) {
      this.setLeading(false);
    }
    return this.leading;
  }

  private setLeading(leading: boolean): void {
    if (leading === this.leading) return;
    this.leading = leading;
    this.options.logger.info(
      { identity: this.options.identity, lease: this.options.name },
      leading ? 'became leader' : 'lost leadership',
    );
    if (leading) this.options.onStartedLeading();
    else this.options.onStoppedLeading();
  }

  private async tryAcquireOrRenew(now: number): Promise<boolean> {
    const { api } = this.options;
    const lease = leaseOf(await api.get(this.ref()));
    if (lease === null) {
      const created = await api.create({
        ...this.ref(),
        metadata: { name: this.options.name, namespace: this.options.namespace },
        spec: this.spec(now),
      });
      if (created) this.observe(leaseOf(created), now);
      return created !== null;
    }
    this.observe(lease, now);
    const holder = lease.spec?.holderIdentity ?? '';
    const expired = this.observed.at + (lease.spec?.leaseDurationSeconds ?? 15) * 1_000 <= now;
    if (holder !== '' && holder !== this.options.identity && !expired) return false;
    try {
      const replaced = leaseOf(await api.replace({ ...lease, spec: this.spec(now, lease.spec) }));
      this.observe(replaced, now);
      return true;
    } catch (error) {
      if (error instanceof KubeApiError && error.status === 409) return false; // someone else wrote first
      throw error;
    }
  }

  private observe(lease: Lease, now: number): void {
    const record = `${lease.spec?.holderIdentity ?? ''}|${lease.spec?.renewTime ?? ''}`;
    if (record !== this.observed.record) this.observed = { record, at: now };
  }

  /** Steps every retry period until stopped. */
  start(): void {
    if (this.running) return;
    this.running = true;
    const tick = (): void => {
      void this.step().then(() => {
        if (this.running) this.handle = this.options.timers.setTimeout(tick, this.options.retryPeriodMs ?? 2_000);
      });
    };
    tick();
  }

  /** Stops and, when leading, releases the Lease so a standby takes over at once (graceful shutdown). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.handle !== undefined) this.options.timers.clearTimeout(this.handle);
    if (!this.leading) return;
    const lease = leaseOf(await this.options.api.get(this.ref()));
    if (lease?.spec?.holderIdentity === this.options.identity) {
      await this.options.api
        .replace({ ...lease, spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1 } })
        .catch(() => undefined);
    }
    this.setLeading(false);
  }
}

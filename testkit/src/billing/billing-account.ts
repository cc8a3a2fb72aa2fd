import type { EntitlementLeasePayload } from '@gw/contracts';

export type AccountStatus = EntitlementLeasePayload['status'];

/** What billing knows about the subscription; every lease it signs reflects the state at that moment. */
export interface AccountState {
  status: AccountStatus;
  optimizerEnabled: boolean;
  leaseTtlMs: number;
}

export type BillingAccountChange = Partial<AccountState>;

/** Mutable account state, changed between requests by a test (`setAccount`) and read when a lease is signed. */
export class BillingAccount {
  #state: AccountState;

  constructor(leaseTtlMs: number) {
    this.#state = { status: 'active', optimizerEnabled: true, leaseTtlMs: positiveMs(leaseTtlMs, 'leaseTtlMs') };
  }

  get state(): Readonly<AccountState> {
    return this.#state;
  }

  change(change: BillingAccountChange): void {
    if (change.status !== undefined && change.status !== 'active' && change.status !== 'suspended') {
      throw new Error(`account status must be active or suspended, got ${String(change.status)}`);
    }
    const leaseTtlMs =
      change.leaseTtlMs === undefined ? this.#state.leaseTtlMs : positiveMs(change.leaseTtlMs, 'leaseTtlMs');
    this.#state = {
      status: change.status ?? this.#state.status,
      optimizerEnabled: change.optimizerEnabled ?? this.#state.optimizerEnabled,
      leaseTtlMs,
    };
  }
}

export function positiveMs(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive whole number of milliseconds, got ${value}`);
  return value;
}

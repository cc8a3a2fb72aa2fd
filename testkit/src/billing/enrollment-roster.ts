import type { EnrollmentIdentity, TenantContext } from '@gw/contracts';

/** Billing's roster of one deployment's enrolled identities, by identity hash, and every batch it took. */
export class EnrollmentRoster {
  readonly identities = new Map<string, EnrollmentIdentity>();
  /** Each accepted request's identities, in arrival order (a test counts batches and checks what crossed). */
  readonly batches: EnrollmentIdentity[][] = [];

  /** Keeps the highest revision of each identity; a replay or an older revision changes nothing. */
  record(identities: readonly EnrollmentIdentity[]): { recorded: number; stale: number } {
    let recorded = 0;
    for (const identity of identities) {
      const held = this.identities.get(identity.identityHash);
      if (held && held.revision >= identity.revision) continue;
      this.identities.set(identity.identityHash, identity);
      recorded += 1;
    }
    this.batches.push([...identities]);
    return { recorded, stale: identities.length - recorded };
  }
}

/** Fleet tenants as billing knows them, by the SHA-256 hex of each client key. */
export interface TenantDirectory {
  fleetMode: boolean;
  readonly byKeyHash: Map<string, Omit<TenantContext, 'deploymentId'>>;
}

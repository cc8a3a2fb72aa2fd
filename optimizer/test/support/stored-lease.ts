import type { EntitlementLeasePayload } from '@gw/contracts';
import {
  ed25519PrivateKey,
  generateEd25519KeyPair,
  leaseTrustStore,
  signLease,
  writeStoredLease,
  type Clock,
  type LeaseTrustStore,
  type Queryable,
} from '@gw/platform';

/** The `gw_entitlement_lease` part of gateway/migrations/037_metering.sql: the optimizer reads it, never creates it. */
export const entitlementLeaseDdl = `CREATE TABLE gw_entitlement_lease (
  deployment_id text PRIMARY KEY,
  lease jsonb NOT NULL,
  issued_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL
)`;

export const deploymentId = 'dep-test-1';
export const hourMs = 60 * 60_000;

/** A billing signer the reader trusts under `keyId`. */
export function leaseIssuer(keyId = 'billing-test') {
  const pair = generateEd25519KeyPair();
  const privateKey = ed25519PrivateKey(pair.privateKey);
  const trust: LeaseTrustStore = leaseTrustStore({ [keyId]: pair.publicKey });
  return {
    trust,
    /**
     * Writes a lease issued now that expires after `validForMs` into this deployment's row, as the gateway stores
     * billing's answer (a `deploymentId` field only changes whom the payload names).
     */
    async store(
      db: Queryable,
      clock: Clock,
      options: Partial<EntitlementLeasePayload> & { validForMs?: number } = {},
    ): Promise<void> {
      const { validForMs = hourMs, ...fields } = options;
      const issuedAt = new Date(clock.now()).toISOString();
      const payload: EntitlementLeasePayload = {
        v: 1,
        deploymentId,
        status: 'active',
        optimizerEnabled: true,
        issuedAt,
        expiresAt: new Date(clock.now() + validForMs).toISOString(),
        ...fields,
      };
      await writeStoredLease(db, deploymentId, signLease(payload, privateKey, keyId), issuedAt, new Date(clock.now()));
    },
  };
}

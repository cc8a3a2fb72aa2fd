import { sha256Hex, type Queryable } from '@gw/platform';

/** The identity billing knows an address by: SHA-256 of the trimmed, lower-cased address. */
export const enrollmentIdentityHash = (address: string): string => sha256Hex(address.trim().toLowerCase());

/**
 * Note, in the transaction of a SCIM write, that billing's roster of enrolled identities must learn about these
 * addresses (the billing context's identity reflector reads the outbox and reports them). One row per identity: a
 * burst of changes coalesces into one report of the latest state, and a failed report is retried from here after a
 * restart or on another replica. Any address may be passed, the current one and those it had before a rename: the
 * reflector reports an address no user holds any more as removed.
 */
export async function markEnrollmentChanged(db: Queryable, addresses: Iterable<string>, at: Date): Promise<void> {
  const unique = [...new Set([...addresses].map((address) => address.trim().toLowerCase()))];
  if (unique.length === 0) return;
  await db.query(
    `INSERT INTO gw_enrollment_identity_outbox (identity_hash, address, changed_at, next_attempt_at)
     SELECT changed.identity_hash, changed.address, $3, $3 FROM unnest($1::text[], $2::text[]) AS changed(identity_hash, address)
     ON CONFLICT (identity_hash) DO UPDATE SET address = EXCLUDED.address, revision = gw_enrollment_identity_outbox.revision + 1,
       changed_at = EXCLUDED.changed_at, next_attempt_at = EXCLUDED.next_attempt_at, attempts = 0, last_error = NULL`,
    [unique.map(enrollmentIdentityHash), unique, at],
  );
}

/**
 * GDPR erase: the outbox forgets the address (billing is then told, by hash alone, that the identity is removed). An
 * address never reported leaves nothing behind.
 */
export async function forgetEnrollmentAddress(db: Queryable, address: string): Promise<void> {
  await db.query(
    `UPDATE gw_enrollment_identity_outbox SET address = NULL, revision = revision + 1, attempts = 0, last_error = NULL,
       changed_at = now(), next_attempt_at = now()
      WHERE identity_hash = $1`,
    [enrollmentIdentityHash(address)],
  );
}

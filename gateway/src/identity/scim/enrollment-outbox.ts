import type { Queryable } from '@gw/platform';

/**
 * Note, in the transaction of a SCIM write, that billing's roster of enrolled identities must learn about these
 * addresses (the billing context's identity reflector reads the outbox and reports them). One row per lower-cased
 * address: a burst of changes coalesces into one report of the latest state, and a failed report is retried from
 * here after a restart or on another replica. Any address may be passed, the current one and those it had before
 * a rename: the reflector reports an address no user holds any more as removed.
 */
export async function markEnrollmentChanged(db: Queryable, addresses: Iterable<string>, at: Date): Promise<void> {
  const unique = [...new Set([...addresses].map((address) => address.trim().toLowerCase()))];
  if (unique.length === 0) return;
  await db.query(
    `INSERT INTO gw_enrollment_identity_outbox (address, changed_at, next_attempt_at)
     SELECT address, $2, $2 FROM unnest($1::text[]) AS address
     ON CONFLICT (address) DO UPDATE SET revision = gw_enrollment_identity_outbox.revision + 1,
       changed_at = EXCLUDED.changed_at, next_attempt_at = EXCLUDED.next_attempt_at, attempts = 0, last_error = NULL`,
    [unique, at],
  );
}

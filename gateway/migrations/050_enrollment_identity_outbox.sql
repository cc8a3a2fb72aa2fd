-- Enrolled identities waiting to be reported to billing (PUT /v1/enrollment-identities). Every SCIM write that changes
-- what billing holds about an address (create, replace, patch, delete, a membership that changes the role) upserts
-- its row here in the same transaction, so a change is never lost to a crash, a restart or a billing outage.
-- One row per identity (the SHA-256 of the lower-cased address, what billing receives): repeated changes coalesce, and
-- `revision` grows so billing keeps the latest. `address` is what the row joins gw_scim_users by; a GDPR erase clears
-- it, and the identity is then reported as removed by its hash alone.
CREATE TABLE gw_enrollment_identity_outbox (
  identity_hash text PRIMARY KEY,
  address text,
  revision bigint NOT NULL DEFAULT 1,
  delivered_revision bigint NOT NULL DEFAULT 0,
  changed_at timestamptz NOT NULL,
  -- When the next attempt may go after a failure (backoff); a fresh change (attempts = 0) is due at once.
  next_attempt_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  -- A replica sending this row holds it until then; a replica that dies mid-call releases it by expiry.
  claimed_until timestamptz,
  last_error text
);
CREATE INDEX gw_enrollment_identity_outbox_due ON gw_enrollment_identity_outbox (changed_at)
  WHERE delivered_revision < revision;

-- Enrolled identities waiting to be reported to billing (PUT /v1/enrollment-identities). Every SCIM write that changes
-- what billing holds about an address (create, replace, patch, delete, a membership that changes the role) upserts
-- its row here in the same transaction, so a change is never lost to a crash, a restart or a billing outage.
-- One row per address (lower-cased): repeated changes coalesce, and `revision` grows so billing keeps the latest.
CREATE TABLE gw_enrollment_identity_outbox (
  address text PRIMARY KEY,
  revision bigint NOT NULL DEFAULT 1,
  delivered_revision bigint NOT NULL DEFAULT 0,
  changed_at timestamptz NOT NULL,
  -- When the next attempt may go: now on a change, later after a failure (backoff).
  next_attempt_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  -- A replica sending this row holds it until then; a replica that dies mid-call releases it by expiry.
  claimed_until timestamptz,
  last_error text
);
CREATE INDEX gw_enrollment_identity_outbox_due ON gw_enrollment_identity_outbox (next_attempt_at)
  WHERE delivered_revision < revision;

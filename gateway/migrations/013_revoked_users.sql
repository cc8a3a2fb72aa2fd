-- Developers an administrator revoked (spec 000 §4.8 users/revoked). Revoking also clears gw_users.active, which the
-- identity stage re-reads on every request.
CREATE TABLE gw_revoked_users (
  email text PRIMARY KEY,
  reason text,
  revoked_by text NOT NULL,
  revoked_at timestamptz NOT NULL
);

-- Developers an administrator revoked. Revoking also clears gw_users.active, which the
-- identity stage re-reads on every request.
CREATE TABLE gw_revoked_users (
  email text PRIMARY KEY,
  reason text,
  revoked_by text NOT NULL,
  revoked_at timestamptz NOT NULL
);

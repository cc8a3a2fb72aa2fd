-- Admin API keys (aak_). Only the SHA-256 hash is stored; the raw key is shown once. The grant is fixed
-- at mint time: either a capability subset or a set of Management API v1 scopes, never both.
CREATE TABLE gw_admin_keys (
  id text PRIMARY KEY,
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  label text,
  caps text[],
  scopes text[],
  tenant text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  revoked_at timestamptz,
  revoked_by text,
  CONSTRAINT gw_admin_keys_one_grant CHECK ((caps IS NULL) <> (scopes IS NULL))
);
CREATE INDEX gw_admin_keys_created ON gw_admin_keys (created_at, id);

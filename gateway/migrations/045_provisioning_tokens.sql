-- Provisioning tokens (prv_): bearer tokens for automation that provisions (an identity provider's SCIM client,
-- endpoint management). Only SHA-256 hashes are stored; the raw token is shown once. Rotation keeps the previous
-- hash for a stated overlap window, after which it is refused.
CREATE TABLE gw_provisioning_tokens (
  id text PRIMARY KEY,
  label text,
  scopes text[] NOT NULL,
  token_hash text NOT NULL UNIQUE,
  token_prefix text NOT NULL,
  previous_hash text UNIQUE,
  previous_valid_until timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  rotated_at timestamptz,
  rotated_by text,
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoked_by text
);
CREATE INDEX gw_provisioning_tokens_created ON gw_provisioning_tokens (created_at, id);

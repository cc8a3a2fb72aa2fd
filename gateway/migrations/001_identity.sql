-- Client keys (ark_) and service keys (ark_svc_). Only the SHA-256 hash of a key is stored; the raw key is shown once.
CREATE TABLE gw_keys (
  id text PRIMARY KEY,
  type text NOT NULL CHECK (type IN ('client', 'service')),
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  source text NOT NULL,
  user_id text,
  team text NOT NULL,
  name text,
  label text,
  monthly_budget_usd numeric,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz,
  rotated_at timestamptz
);
CREATE INDEX gw_keys_user ON gw_keys (user_id);

-- Users known to the gateway: the active flag is re-read on every key lookup (SCIM deactivation blocks at once).
CREATE TABLE gw_users (
  user_id text PRIMARY KEY,
  active boolean NOT NULL DEFAULT true,
  display_name text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Durable tier of the reversible stash: one AES-256-GCM envelope per handle under GW_CONTENT_KEY,
-- bound to its handle as associated data. Owner columns let recall read only the requesting user's own rows.
CREATE TABLE IF NOT EXISTS optimizer_stash (
  handle text PRIMARY KEY,
  tenant text NOT NULL,
  user_id text,
  team_id text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  ceiling_at timestamptz NOT NULL,
  total_lines integer NOT NULL,
  total_chars integer NOT NULL,
  sealed text NOT NULL
);

CREATE INDEX IF NOT EXISTS optimizer_stash_owner_idx ON optimizer_stash (tenant, user_id, created_at DESC);
CREATE INDEX IF NOT EXISTS optimizer_stash_expiry_idx ON optimizer_stash (expires_at);

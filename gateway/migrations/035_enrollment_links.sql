-- Enrollment links: an
-- administrator mints a link for a team (optionally for one developer); the connect CLI redeems its token at
-- POST /connect/verify for a client key of its own. Only the token's SHA-256 is kept.
CREATE TABLE gw_enrollment_links (
  id text PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  team text NOT NULL,
  -- When set, only this developer (any case) may redeem the link.
  user_id text,
  label text,
  tenant text,
  max_uses integer NOT NULL,
  uses integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX gw_enrollment_links_created ON gw_enrollment_links (created_at DESC, id);

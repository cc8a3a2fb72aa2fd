-- Runtime settings documents (the contract PUT /admin/settings), one JSON row per name; every replica caches them
-- and reloads on a Coord invalidation.
CREATE TABLE gw_settings (
  name text PRIMARY KEY,
  document jsonb NOT NULL,
  revision integer NOT NULL DEFAULT 1,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

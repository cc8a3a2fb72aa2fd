-- Policy documents the gateway serves to clients, one
-- JSON row per name ('claude-desktop'). Documents never hold secrets: the write boundary rejects credential-shaped
-- values. `revision` backs expectedRevision (409 on a stale write).
CREATE TABLE gw_policies (
  name text PRIMARY KEY,
  document jsonb NOT NULL,
  revision integer NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Policy documents the gateway serves to clients (spec 000 §2 "Desktop-client policy", §4.5, §4.8 policies), one
-- JSON row per name ('claude-desktop'). Documents never hold secrets: the write boundary rejects credential-shaped
-- values. `revision` backs expectedRevision (409 on a stale write).
CREATE TABLE gw_policies (
  name text PRIMARY KEY,
  document jsonb NOT NULL,
  revision integer NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

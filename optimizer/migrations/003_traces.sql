-- Calls recorded through POST /v1/record where no gateway is in the path. Ids are the
-- caller's idempotency keys; content is an AES-256-GCM envelope, absent when content mode is off.
CREATE TABLE IF NOT EXISTS optimizer_traces (
  id text PRIMARY KEY,
  ts timestamptz NOT NULL,
  endpoint text,
  method text,
  status integer,
  model text,
  provider text,
  prompt_tokens integer,
  completion_tokens integer,
  total_tokens integer,
  duration_ms double precision,
  user_id text,
  team_id text,
  session_id text,
  decisions jsonb NOT NULL DEFAULT '[]'::jsonb,
  content_sealed text,
  recorded_at timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS optimizer_traces_ts_idx ON optimizer_traces (ts DESC);

-- Runtime settings shared by every optimizer replica (spec 001 §2.5); replicas re-read it every 15 seconds.
CREATE TABLE IF NOT EXISTS optimizer_settings (
  id smallint PRIMARY KEY CHECK (id = 1),
  config jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);

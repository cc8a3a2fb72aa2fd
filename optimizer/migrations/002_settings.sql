-- Runtime settings shared by every optimizer replica; replicas re-read it every 15 seconds.
CREATE TABLE IF NOT EXISTS optimizer_settings (
  id smallint PRIMARY KEY CHECK (id = 1),
  config jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);

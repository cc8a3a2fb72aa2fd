-- Batches created through the gateway: who created each one, so its output is billed to that key, user and team and
-- only that key may read, cancel or download it. Provider batch ids are unique per provider account; the provider's
-- slug is kept so the output is fetched from the provider that ran the batch.
CREATE TABLE IF NOT EXISTS gw_batches (
  batch_id text PRIMARY KEY,
  provider text NOT NULL,
  key_id text NOT NULL,
  key_type text,
  user_id text,
  team text,
  endpoint text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS gw_batches_key_idx ON gw_batches (key_id);

-- One row per output line already billed (line = a digest of the request's custom_id, or its position without one):
-- a second download, on this replica or another, claims nothing new and so writes no second spend row.
CREATE TABLE IF NOT EXISTS gw_batch_output_lines (
  batch_id text NOT NULL REFERENCES gw_batches (batch_id) ON DELETE CASCADE,
  line_key text NOT NULL,
  spend_id text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (batch_id, line_key)
);

-- Files the gateway saw a key own: uploaded through it, or a batch's output and error files. Another key asking for
-- one is answered as for a file that does not exist.
CREATE TABLE IF NOT EXISTS gw_batch_files (
  file_id text PRIMARY KEY,
  key_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

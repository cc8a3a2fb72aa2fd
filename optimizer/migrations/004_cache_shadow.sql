-- The semantic cache's shadow counters, summed over every replica per UTC day:
-- replicas add what they counted every 30 seconds; the settings view reads the total since the first day.
CREATE TABLE IF NOT EXISTS optimizer_cache_shadow (
  day date PRIMARY KEY,
  lookups bigint NOT NULL DEFAULT 0,
  hits bigint NOT NULL DEFAULT 0,
  compared bigint NOT NULL DEFAULT 0,
  identical bigint NOT NULL DEFAULT 0
);

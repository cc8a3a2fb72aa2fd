-- Spend connectors: the providers' own organisation usage and cost reports, pulled with write-only admin credentials
-- (sealed under the keystore key like provider keys) and stored as daily per-model totals beside gw_spend, so the
-- difference shows what went around the gateway.
CREATE TABLE gw_spend_connectors (
  vendor text PRIMARY KEY,
  admin_key_sealed text NOT NULL,
  key_hint text NOT NULL,
  base_url text,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL,
  last_sync_at timestamptz,
  last_sync_outcome text,
  last_sync_rows integer,
  last_sync_error text
);

CREATE TABLE gw_external_spend (
  vendor text NOT NULL,
  day date NOT NULL,
  model text NOT NULL,
  requests bigint,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  cached_input_tokens bigint NOT NULL DEFAULT 0,
  cost_usd numeric NOT NULL DEFAULT 0,
  synced_at timestamptz NOT NULL,
  PRIMARY KEY (vendor, day, model)
);

-- Per-user cap entries. Usage lives in Coord counters that
-- reconcile with gw_spend; this table holds only the limits. GDPR export and erase find rows through user_id.
CREATE TABLE gw_user_caps (
  user_id text PRIMARY KEY,
  monthly_tokens bigint,
  max_usd numeric,
  soft_usd numeric,
  reset text NOT NULL DEFAULT 'monthly' CHECK (reset IN ('never', 'daily', 'weekly', 'monthly')),
  -- Opt-in: reserve an estimate before the call so concurrent requests cannot overshoot (governance/README.md).
  strict boolean NOT NULL DEFAULT false,
  -- Per-user cap-approach alerts; NULL thresholds means the map-wide alert settings apply.
  alert_thresholds integer[],
  -- The Slack-compatible webhook URL, AES-256-GCM sealed under GW_KEYSTORE_KEY; never returned by any route.
  alert_webhook_sealed text,
  revision integer NOT NULL DEFAULT 1,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Governance documents: 'user-caps' (map revision and map-wide alert settings) and 'limits' (rate and concurrency
-- limits with per-user and per-key overrides). One JSON row per name, cached by every replica.
CREATE TABLE gw_governance_documents (
  name text PRIMARY KEY,
  document jsonb NOT NULL,
  -- A sealed secret that belongs to the document (the map-wide alert webhook URL); never returned.
  secret_sealed text,
  revision integer NOT NULL DEFAULT 0,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Usage reports group by model and UTC day inside a time range; property reports read attribution->'properties'.
CREATE INDEX gw_spend_ts_model ON gw_spend (ts, model);
CREATE INDEX gw_spend_key_type_ts ON gw_spend (key_type, ts);

-- Metering lane and entitlement.

-- The signed lease billing answered with, as received; the gateway and the optimizer each verify it on read.
CREATE TABLE gw_entitlement_lease (
  deployment_id text PRIMARY KEY,
  lease jsonb NOT NULL,
  issued_at timestamptz NOT NULL,
  received_at timestamptz NOT NULL
);

-- Every usage report sent to billing (the metering audit lane): the content-free payload and what billing answered.
CREATE TABLE gw_metering_reports (
  id text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  window_end timestamptz NOT NULL,
  heartbeat_tier text NOT NULL,
  state text NOT NULL,
  http_status integer,
  error_code text,
  report jsonb NOT NULL,
  lease_status text,
  lease_expires_at timestamptz,
  attempted_at timestamptz NOT NULL
);
CREATE INDEX gw_metering_reports_attempted ON gw_metering_reports (attempted_at DESC, window_end DESC, id DESC);
CREATE INDEX gw_metering_reports_accepted ON gw_metering_reports (window_end) WHERE state = 'accepted';

-- When a spend row reached the store: usage windows are cut on this, not on the call's start (`ts`), so a long stream
-- written after its window was reported is counted in the next one instead of never. now() is stable, so existing
-- rows take the migration's instant without a table rewrite.
ALTER TABLE gw_spend ADD COLUMN recorded_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX gw_spend_recorded_at ON gw_spend (recorded_at);

-- Trace metadata lane: one content-free row per traced call, written by metering. Content, when
-- content mode allows it, is a separate AES-256-GCM envelope under GW_CONTENT_KEY, readable only with traces:content.
CREATE TABLE gw_traces (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  session_id text,
  user_id text,
  team text,
  key_id text,
  endpoint text NOT NULL,
  provider text,
  model text,
  status integer NOT NULL,
  latency_ms integer NOT NULL DEFAULT 0,
  prompt_tokens integer NOT NULL DEFAULT 0,
  completion_tokens integer NOT NULL DEFAULT 0,
  cost_usd numeric NOT NULL DEFAULT 0,
  optimization_status text,
  content_sealed text
);
CREATE INDEX gw_traces_page ON gw_traces (created_at DESC, id DESC);
CREATE INDEX gw_traces_session ON gw_traces (session_id, created_at);
CREATE INDEX gw_traces_user ON gw_traces (user_id, created_at DESC);

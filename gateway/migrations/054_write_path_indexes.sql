-- Every metered call inserts a spend row and a trace, and each index on them is paid for on every insert.

-- gw_spend_ts (ts) is covered by gw_spend_ts_model (ts, model): a range or an order on ts alone reads the wider index.
DROP INDEX IF EXISTS gw_spend_ts;

-- Most calls belong to no optimizer session. Only the traces that do are indexed by session: every query on the
-- column asks for a session (an equality or IS NOT NULL), which lets the planner use the partial index.
DROP INDEX IF EXISTS gw_traces_session;
CREATE INDEX gw_traces_session ON gw_traces (session_id, created_at) WHERE session_id IS NOT NULL;

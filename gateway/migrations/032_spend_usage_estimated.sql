-- A stream that ended before the provider reported its usage (the client left, the drain deadline, a dropped
-- connection) is recorded with the gateway's estimate of what the provider billed, flagged here so reports can tell
-- reported usage from estimated usage.
ALTER TABLE gw_spend ADD COLUMN usage_estimated boolean NOT NULL DEFAULT false;

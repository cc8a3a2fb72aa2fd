-- The built-in agent lane: hosts enrolled by osquery and orbit with an
-- organization's enroll secret, their node keys, and the remediation audit. Hashes only: no hardware serial, no
-- user, no inventory, no command output unless remediation-output retention is on (then encrypted, 30 days).

-- Hashes of the hardware UUID and the query agent's own UUID (both stable identifiers of the machine).
ALTER TABLE ev_hosts ADD COLUMN hardware_hash text;
ALTER TABLE ev_hosts ADD COLUMN osquery_hash text;
-- When the agent last answered the policy queries: the next distributed read asks again once it is stale or null.
ALTER TABLE ev_hosts ADD COLUMN policies_checked_at timestamptz;

-- Node keys of enrolled agents (osquery `node_key`, orbit `orbit_node_key`) as SHA-256; one live key per host and kind.
CREATE TABLE ev_node_keys (
  hash text PRIMARY KEY,
  host_id text NOT NULL REFERENCES ev_hosts (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('osquery', 'orbit')),
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX ev_node_keys_one_per_kind ON ev_node_keys (host_id, kind);

-- The device token orbit hands fleet desktop, as SHA-256: proof a local page belongs to this host.
CREATE TABLE ev_device_tokens (
  host_id text PRIMARY KEY REFERENCES ev_hosts (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  updated_at timestamptz NOT NULL
);

-- Remediation audit: bounded at-least-once delivery, a ten-minute lease, three attempts and a
-- 24-hour lifetime. The audit row outlives the output, which is kept only when retention is on.
CREATE TABLE ev_remediations (
  execution_id text PRIMARY KEY,
  sequence bigint GENERATED ALWAYS AS IDENTITY,
  org_id text NOT NULL REFERENCES ev_orgs (id) ON DELETE CASCADE,
  host_id text NOT NULL REFERENCES ev_hosts (id) ON DELETE CASCADE,
  policy_name text NOT NULL,
  script_name text NOT NULL,
  trigger text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'ran', 'error', 'timed_out', 'exhausted', 'expired', 'cancelled')),
  exit_code integer,
  attempts integer NOT NULL DEFAULT 0,
  lease_expires_at timestamptz,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  completed_at timestamptz,
  -- AES-256-GCM of the truncated output under GW_CONTENT_KEY; null when retention is off or the output aged out.
  output_sealed text,
  output_expires_at timestamptz
);
CREATE INDEX ev_remediations_host ON ev_remediations (host_id, status);
CREATE INDEX ev_remediations_org ON ev_remediations (org_id, sequence DESC);

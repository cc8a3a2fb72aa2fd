-- The endpoint evidence service's own store. No serial numbers, users,
-- inventory, command output or evidence text, ever: hosts are hashes and names, results are pass, fail or null.
CREATE TABLE ev_orgs (
  id text PRIMARY KEY,
  name text NOT NULL,
  gateway_url text,
  gateway_hostname text,
  billing_tenant_id text,
  created_at timestamptz NOT NULL
);

-- Reporting credentials as SHA-256 hashes only; the raw value is returned once.
CREATE TABLE ev_credentials (
  hash text PRIMARY KEY,
  org_id text NOT NULL REFERENCES ev_orgs (id) ON DELETE CASCADE,
  kind text NOT NULL,
  -- For an evidence connector (`aer_`): the evidence source it reports as.
  source text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX ev_credentials_one_per_source ON ev_credentials (org_id, kind, source);

CREATE TABLE ev_hosts (
  id text PRIMARY KEY,
  org_id text NOT NULL REFERENCES ev_orgs (id) ON DELETE CASCADE,
  -- sha256 of "<source>:<device.id>": the same device reported by two sources is two hosts.
  device_hash text NOT NULL,
  hostname text,
  platform text NOT NULL,
  source text NOT NULL,
  last_evidence_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX ev_hosts_device ON ev_hosts (org_id, device_hash);

-- Per-organization disabled policy names (the pack itself is compiled into the service image).
CREATE TABLE ev_policy_disabled (
  org_id text NOT NULL REFERENCES ev_orgs (id) ON DELETE CASCADE,
  policy_name text NOT NULL,
  PRIMARY KEY (org_id, policy_name)
);

CREATE TABLE ev_policy_results (
  host_id text NOT NULL REFERENCES ev_hosts (id) ON DELETE CASCADE,
  policy_name text NOT NULL,
  -- true pass, false fail, null unknown
  passing boolean,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (host_id, policy_name)
);

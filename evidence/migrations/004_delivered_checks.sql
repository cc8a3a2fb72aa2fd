-- Vendor-delivered checks (the policy-push lane): signed, read-only, monitor-only, never critical, never a script.
-- The signed envelope is kept exactly as delivered and verified again whenever the catalog is read, so a row written
-- into the store by hand is not a check. A check named like an image check replaces it while it is active, and that
-- image check's remediation is suspended meanwhile.
CREATE TABLE ev_delivered_checks (
  org_id text NOT NULL REFERENCES ev_orgs (id) ON DELETE CASCADE,
  check_id text NOT NULL,
  revision integer NOT NULL,
  name text NOT NULL,
  key_id text NOT NULL,
  payload text NOT NULL,
  signature text NOT NULL,
  -- An administrator's per-check switch; a redelivery keeps it.
  disabled boolean NOT NULL DEFAULT false,
  delivered_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, check_id)
);
CREATE UNIQUE INDEX ev_delivered_checks_name ON ev_delivered_checks (org_id, name);

-- The lane switch, per organization: on unless a row says off. Off withdraws every delivered check and refuses more.
CREATE TABLE ev_delivered_lane (
  org_id text PRIMARY KEY REFERENCES ev_orgs (id) ON DELETE CASCADE,
  enabled boolean NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Every delivery, refusal, withdrawal and switch, with actor gw-policy-push for deliveries. Content-free: ids, names,
-- revisions and reason codes, never a query.
CREATE TABLE ev_delivered_audit (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id text NOT NULL REFERENCES ev_orgs (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  check_id text,
  revision integer,
  name text,
  outcome text NOT NULL,
  reason text
);
CREATE INDEX ev_delivered_audit_org ON ev_delivered_audit (org_id, id DESC);

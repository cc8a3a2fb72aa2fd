-- Automatic remediation (trigger `policy`): per organization and check, whether a failing result on a built-in agent
-- host queues the check's script by itself. Off unless an administrator turns it on.
CREATE TABLE ev_policy_automation (
  org_id text NOT NULL REFERENCES ev_orgs (id) ON DELETE CASCADE,
  policy_name text NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (org_id, policy_name)
);
CREATE INDEX ev_remediations_policy_trigger ON ev_remediations (host_id, policy_name, created_at DESC);

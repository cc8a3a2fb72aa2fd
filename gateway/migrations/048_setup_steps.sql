-- First-run setup: each step's state is derived from the store that holds it (provider keys, routing, the identity
-- provider, enrollment links, console sign-ins); the one thing only setup knows is that an administrator chose to skip
-- a step (an organisation without an identity provider skips that step).
CREATE TABLE gw_setup_steps (
  step text PRIMARY KEY,
  skipped boolean NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Console sign-in with the organisation's identity provider (OpenID Connect, authorization code with PKCE).
-- The client secret is sealed under GW_KEYSTORE_KEY (AES-256-GCM, associated data binds it to this row) and never
-- returned. Design: docs/adr/0026-console-sessions.md.
CREATE TABLE gw_idp_config (
  tenant text PRIMARY KEY,
  issuer text NOT NULL,
  client_id text NOT NULL,
  client_secret_sealed text NOT NULL,
  -- Which ID-token claims name the user (matched to the SCIM userName) and their display name.
  claim_mapping jsonb NOT NULL,
  -- Identity-provider group name → console role, beside the SCIM adminGroup (whose members get admin_role).
  role_group_map jsonb NOT NULL DEFAULT '{}'::jsonb,
  admin_role text NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Console sessions, stored server-side so a sign-out or an administrator revokes them at once on every replica. Only
-- the SHA-256 of the cookie's session token is kept, and of the session's CSRF token.
CREATE TABLE gw_console_sessions (
  id_hash text PRIMARY KEY,
  -- The deployment the session was minted by: a cookie is honoured only by the deployment that set it.
  deployment text NOT NULL,
  user_name text NOT NULL,
  subject text NOT NULL,
  issuer text NOT NULL,
  csrf_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text
);
CREATE INDEX gw_console_sessions_user ON gw_console_sessions (lower(user_name));
CREATE INDEX gw_console_sessions_expires ON gw_console_sessions (expires_at);

-- The random secret that binds a session cookie to this deployment (an HMAC over the token and the deployment id),
-- made on first use.
CREATE TABLE gw_console_binding (
  id integer PRIMARY KEY CHECK (id = 1),
  secret text NOT NULL,
  created_at timestamptz NOT NULL
);

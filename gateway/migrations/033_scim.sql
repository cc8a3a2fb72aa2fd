-- Inbound SCIM v2: the identity provider's users and groups, and the provisioning settings.
-- A user's active flag here is one of the two sources (with gw_revoked_users) of gw_users.active, which the identity
-- stage re-reads on every request; users/user-active.ts derives it from both.
CREATE TABLE gw_scim_settings (
  tenant text PRIMARY KEY,
  bearer_hash text,
  admin_group text,
  group_team_map jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE gw_scim_users (
  id text PRIMARY KEY,
  -- Creation order, for stable paging (timestamps of one burst of provisioning can be equal).
  seq bigint GENERATED ALWAYS AS IDENTITY,
  user_name text NOT NULL,
  external_id text,
  display_name text,
  given_name text,
  family_name text,
  user_type text,
  active boolean NOT NULL DEFAULT true,
  -- A SCIM delete is a soft delete that deactivates: the row stays, answering 404, until the
  -- identity provider creates the same user again.
  deleted boolean NOT NULL DEFAULT false,
  -- Derived from group membership and the settings' groupTeamMap and adminGroup; recomputed on every change.
  team text,
  admin boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- userName is an e-mail address: one SCIM user per address whatever its case.
CREATE UNIQUE INDEX gw_scim_users_user_name ON gw_scim_users (lower(user_name));

CREATE TABLE gw_scim_groups (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  display_name text NOT NULL,
  external_id text,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX gw_scim_groups_display_name ON gw_scim_groups (lower(display_name));

CREATE TABLE gw_scim_members (
  group_id text NOT NULL REFERENCES gw_scim_groups (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES gw_scim_users (id) ON DELETE CASCADE,
  PRIMARY KEY (group_id, user_id)
);
CREATE INDEX gw_scim_members_user ON gw_scim_members (user_id);

-- Keys name their user as minted; an administrator's revocation and the identity provider name the same address in
-- any case. The identity stage matches users case-insensitively through this index.
CREATE INDEX gw_users_user_lower ON gw_users (lower(user_id));

-- A SCIM user renamed by the identity provider keeps blocking the addresses it had (A deactivated
-- identity answers 401 user_deactivated): keys minted for an old address must not come back to life when the
-- provider renames a deactivated user. Lower-cased, in rename order.
ALTER TABLE gw_scim_users ADD COLUMN former_user_names text[] NOT NULL DEFAULT '{}';

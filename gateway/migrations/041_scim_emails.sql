-- A SCIM user's e-mail addresses as the identity provider sent them (value, type, primary, display; nothing else of
-- a value is kept). userName stays the identity that keys and blocking match on; these never re-key a user.
ALTER TABLE gw_scim_users ADD COLUMN emails jsonb NOT NULL DEFAULT '[]'::jsonb;
-- Until now the user was shown with its userName as its one, primary, work address; existing users keep showing it.
UPDATE gw_scim_users SET emails = jsonb_build_array(jsonb_build_object('value', user_name, 'type', 'work', 'primary', true, 'display', NULL));

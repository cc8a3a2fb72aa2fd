-- The endpoint agent's installer packages an administrator uploads, one current package per OS, downloaded by whoever
-- rolls the agent out. The bytes live here, not on a replica's disk, so every replica serves the same package on
-- either store (docs/adr/0028-installers-in-the-relational-store.md). A package is cut into chunks of at most 1 MiB
-- under its upload id: an upload writes its chunks first and becomes the current package only when one transaction
-- points the OS at it, so a failed or abandoned upload never replaces the package before it.
CREATE TABLE gw_fleet_installers (
  os text PRIMARY KEY,
  upload_id text NOT NULL,
  kind text NOT NULL,
  content_type text NOT NULL,
  size_bytes bigint NOT NULL,
  sha256 text NOT NULL,
  chunk_bytes integer NOT NULL,
  uploaded_at timestamptz NOT NULL,
  uploaded_by text NOT NULL
);

CREATE TABLE gw_fleet_installer_chunks (
  upload_id text NOT NULL,
  seq integer NOT NULL,
  bytes bytea NOT NULL,
  staged_at timestamptz NOT NULL,
  PRIMARY KEY (upload_id, seq)
);

-- Chunks of an upload that never became current (its process died mid-body) are swept by age.
CREATE INDEX gw_fleet_installer_chunks_staged ON gw_fleet_installer_chunks (staged_at);

-- Machines the connect CLI reported joining a seat, proven by the seat's device certificate. Only SHA-256 hashes of the
-- machine UUID and of the certificate are kept; a machine is one row per seat, its certificate the latest it proved with.
CREATE TABLE gw_device_machines (
  tenant text NOT NULL,
  seat text NOT NULL,
  machine_sha256 text NOT NULL,
  certificate_sha256 text NOT NULL,
  key_id text NOT NULL,
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  PRIMARY KEY (tenant, seat, machine_sha256)
);

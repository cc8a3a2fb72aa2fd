-- Developer seats on the connect API.
-- A seat is one developer of one tenant (tenant '' outside fleet mode): every machine they enrolled reports into it.
-- Nothing here holds content: doctor checks are names and statuses, device tokens are SHA-256 hashes.
CREATE TABLE gw_seats (
  tenant text NOT NULL,
  seat text NOT NULL,
  -- The last doctor report (POST /connect/health): [{name, status}] and the client's version.
  checks jsonb NOT NULL DEFAULT '[]'::jsonb,
  client_version text,
  reported_at timestamptz,
  -- POST /connect/offboard, or a `revert` directive acked ok; minting a new key for the developer clears it.
  offboarded_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tenant, seat)
);

-- One live device token per seat: a new registration replaces (revokes) the previous one.
CREATE TABLE gw_device_tokens (
  token_hash text PRIMARY KEY,
  tenant text NOT NULL,
  seat text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX gw_device_tokens_seat ON gw_device_tokens (tenant, seat);

CREATE TABLE gw_seat_directives (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  tenant text NOT NULL,
  seat text NOT NULL,
  kind text NOT NULL,
  tool text,
  -- queued → delivered (re-delivered until acked) → closed
  status text NOT NULL DEFAULT 'queued',
  result text,
  deliveries integer NOT NULL DEFAULT 0,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  delivered_at timestamptz,
  closed_at timestamptz
);
CREATE INDEX gw_seat_directives_open ON gw_seat_directives (tenant, seat, seq) WHERE status <> 'closed';
CREATE INDEX gw_seat_directives_list ON gw_seat_directives (created_at DESC, seq DESC);

-- Savings the connect CLI's hooks made before a request reached the gateway (POST /connect/hook-savings), per seat
-- and UTC day. Client-reported tokens; the dollar figure is the gateway's own, from its price table.
CREATE TABLE gw_hook_savings (
  tenant text NOT NULL,
  seat text NOT NULL,
  day date NOT NULL,
  tokens_saved bigint NOT NULL DEFAULT 0,
  savings_micros bigint NOT NULL DEFAULT 0,
  events integer NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, seat, day)
);
